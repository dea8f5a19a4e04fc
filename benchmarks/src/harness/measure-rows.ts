import type { CallRow } from './call-row.js';
import { summarizeSamples, type SampleStats } from './sample-stats.js';

/** How long and how often the rows are measured. */
export interface MeasureSettings {
  /** Target wall time of one timed batch, in milliseconds. */
  readonly batchMs: number;
  /** Minimum warm-up time per row before its batch size is fixed, in milliseconds. */
  readonly warmupMs: number;
  /** Timed repeats per row. */
  readonly repeats: number;
}

/** A row's measurement: its stats and the batch size used. */
export interface RowMeasurement {
  /** The measured row. */
  readonly row: CallRow;
  /** Nanoseconds per call. */
  readonly stats: SampleStats;
  /** Nanoseconds per call of each repeat by the row's clock, in repeat order (repeat `i` of every row ran back to back). */
  readonly samples: readonly number[];
  /** Nanoseconds of process CPU time per call of each repeat, whatever the row's clock. */
  readonly cpuSamples: readonly number[];
  /** Nanoseconds of wall time per call of each repeat, whatever the row's clock. */
  readonly wallSamples: readonly number[];
  /** Calls per timed batch. */
  readonly callsPerBatch: number;
}

/** Milliseconds one batch took, by both clocks. */
interface BatchTime {
  /** CPU time (user + system, all threads of the process). */
  readonly cpuMs: number;
  /** Elapsed time. */
  readonly wallMs: number;
}

/**
 * Times one batch by CPU time (user + system, all threads of the process) and by wall time. CPU
 * time is what in-process rows are judged by: on a shared machine a batch that is preempted by
 * another process would otherwise count the other process's time, and every such row is CPU-bound
 * (no I/O, no timers), so on an idle machine the two agree. Rows that wait on Redis or the disk
 * are judged by wall time (`CallRow.clock`).
 */
async function timeBatch(row: CallRow, calls: number): Promise<BatchTime> {
  const startedAt = process.cpuUsage();
  const wallFrom = performance.now();
  await row.batch(calls);
  const wallMs = performance.now() - wallFrom;
  const used = process.cpuUsage(startedAt);
  return { cpuMs: (used.user + used.system) / 1000, wallMs };
}

/** Milliseconds of `time` by `row`'s clock. */
function byClock(row: CallRow, time: BatchTime): number {
  return row.clock === 'wall' ? time.wallMs : time.cpuMs;
}

/** Warms `row` up and returns the batch size that takes about `settings.batchMs`. */
async function calibrate(row: CallRow, settings: MeasureSettings): Promise<number> {
  let calls = 16;
  let elapsed = byClock(row, await timeBatch(row, calls));
  let warmedFor = elapsed;
  while (elapsed < 20 || warmedFor < settings.warmupMs) {
    if (elapsed < 20) calls *= 2;
    elapsed = byClock(row, await timeBatch(row, calls));
    warmedFor += elapsed;
  }
  return Math.max(1, Math.round((calls * settings.batchMs) / elapsed));
}

/**
 * Checks every row once, warms each up, then times them round-robin (repeat 1 of every row, then
 * repeat 2, …) so that a slow moment of the machine is shared by all rows instead of skewing one.
 *
 * @throws Error when a row's correctness check fails; nothing is timed then.
 */
export async function measureRows(
  rows: readonly CallRow[],
  settings: MeasureSettings,
  onProgress: (message: string) => void,
): Promise<RowMeasurement[]> {
  for (const row of rows) {
    try {
      await row.check();
    } catch (error) {
      throw new Error(`Row ${row.id} (${row.label}) failed its correctness check: ${String(error)}`, { cause: error });
    }
  }
  onProgress(`all ${rows.length} rows passed their correctness check`);

  const sizes = new Map<CallRow, number>();
  for (const row of rows) sizes.set(row, await calibrate(row, settings));
  onProgress('warm-up done');

  const cpuSamples = new Map<CallRow, number[]>(rows.map((row) => [row, []]));
  const wallSamples = new Map<CallRow, number[]>(rows.map((row) => [row, []]));
  for (let repeat = 0; repeat < settings.repeats; repeat++) {
    for (const row of rows) {
      // No forced GC between batches: a full GC shrinks the young generation and leaves sweeping to
      // background threads, which made the next batch up to twice as slow. Each row pays for the
      // collections its own allocations cause, as it would in production.
      const calls = sizes.get(row)!;
      const time = await timeBatch(row, calls);
      cpuSamples.get(row)!.push((time.cpuMs * 1e6) / calls);
      wallSamples.get(row)!.push((time.wallMs * 1e6) / calls);
    }
    onProgress(`repeat ${repeat + 1}/${settings.repeats}`);
  }
  return rows.map((row) => {
    const samples = (row.clock === 'wall' ? wallSamples : cpuSamples).get(row)!;
    return {
      row,
      stats: summarizeSamples(samples),
      samples,
      cpuSamples: cpuSamples.get(row)!,
      wallSamples: wallSamples.get(row)!,
      callsPerBatch: sizes.get(row)!,
    };
  });
}

/**
 * The measurement of row `id`.
 *
 * @throws Error when no row has that id (a report naming a row the suite did not run is a harness bug).
 */
export function measurementOf(measurements: readonly RowMeasurement[], id: string): RowMeasurement {
  const found = measurements.find((measurement) => measurement.row.id === id);
  if (found === undefined) throw new Error(`No measurement for row ${id}.`);
  return found;
}
