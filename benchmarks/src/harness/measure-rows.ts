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
  /** Nanoseconds per call of each repeat, in repeat order (repeat `i` of every row ran back to back). */
  readonly samples: readonly number[];
  /** Calls per timed batch. */
  readonly callsPerBatch: number;
}

/**
 * Milliseconds of CPU time (user + system, all threads of the process) one batch took. CPU time, not
 * wall time: on a shared machine a batch that is preempted by another process would otherwise
 * count the other process's time. Every row is CPU-bound (no I/O, no timers), so for an idle
 * machine the two agree.
 */
async function timeBatch(row: CallRow, calls: number): Promise<number> {
  const startedAt = process.cpuUsage();
  await row.batch(calls);
  const used = process.cpuUsage(startedAt);
  return (used.user + used.system) / 1000;
}

/** Warms `row` up and returns the batch size that takes about `settings.batchMs`. */
async function calibrate(row: CallRow, settings: MeasureSettings): Promise<number> {
  let calls = 16;
  let elapsed = await timeBatch(row, calls);
  let warmedFor = elapsed;
  while (elapsed < 20 || warmedFor < settings.warmupMs) {
    if (elapsed < 20) calls *= 2;
    elapsed = await timeBatch(row, calls);
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

  const samples = new Map<CallRow, number[]>(rows.map((row) => [row, []]));
  for (let repeat = 0; repeat < settings.repeats; repeat++) {
    for (const row of rows) {
      // No forced GC between batches: a full GC shrinks the young generation and leaves sweeping to
      // background threads, which made the next batch up to twice as slow. Each row pays for the
      // collections its own allocations cause, as it would in production.
      const calls = sizes.get(row)!;
      const elapsedMs = await timeBatch(row, calls);
      samples.get(row)!.push((elapsedMs * 1e6) / calls);
    }
    onProgress(`repeat ${repeat + 1}/${settings.repeats}`);
  }
  return rows.map((row) => ({
    row,
    stats: summarizeSamples(samples.get(row)!),
    samples: samples.get(row)!,
    callsPerBatch: sizes.get(row)!,
  }));
}
