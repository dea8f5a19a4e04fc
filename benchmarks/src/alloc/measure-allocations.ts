/**
 * Bytes allocated per call by the headline rows (2 and 3 with a pino line, 4 and 5 without):
 * `pnpm --filter @milpa/benchmarks run alloc`. The script runs with a young generation large
 * enough (64 MB semi-spaces, set by the `alloc` script) that a sample of calls triggers no garbage
 * collection; a sample is then the growth of the used heap over its calls, divided by their number.
 * A sample during which a collection ran anyway (seen by a `gc` performance observer) is thrown away
 * and taken again. Each row is warmed up first, so its code is optimized as it would be in a
 * long-running process. Reported: the median of the samples, and the range.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createHeadlineRows } from '../fixtures/headline-rows.js';
import type { CallRow } from '../harness/call-row.js';
import { summarizeSamples } from '../harness/sample-stats.js';

const BUDGET = 1_000_000_000_000;
const WARMUP_CALLS = 50_000;
const CALLS_PER_SAMPLE = 2_000;
const SAMPLES = 9;
const MAX_ATTEMPTS = 40;
const ENTRY_DELAY_MS = 5;

/** The bytes per call of one row: the median and range of its samples. */
export interface AllocationFigure {
  /** The row measured. */
  readonly row: CallRow;
  /** Median bytes allocated per call. */
  readonly median: number;
  /** Fewest bytes per call of any sample. */
  readonly min: number;
  /** Most bytes per call of any sample. */
  readonly max: number;
}

let collections = 0;
const observer = new PerformanceObserver((list) => {
  collections += list.getEntries().length;
});

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('Run with --expose-gc (pnpm --filter @milpa/benchmarks run alloc does).');
  gc();
}

/** One sample of `row`, or null when a collection ran during it. */
async function sampleOnce(row: CallRow): Promise<number | null> {
  collectGarbage();
  // Performance entries arrive a few turns of the event loop later: the forced collection's must be
  // counted before the sample starts.
  await sleep(ENTRY_DELAY_MS);
  const seenBefore = collections;
  const before = process.memoryUsage().heapUsed;
  await row.batch(CALLS_PER_SAMPLE);
  const after = process.memoryUsage().heapUsed;
  await sleep(ENTRY_DELAY_MS);
  if (collections !== seenBefore || after < before) return null;
  return (after - before) / CALLS_PER_SAMPLE;
}

/**
 * Measures the bytes per call of each row.
 *
 * @throws Error when a row fails its correctness check, or when no clean sample can be taken (a
 *   collection runs during every attempt: the young generation is too small for the sample).
 */
export async function measureAllocations(rows: readonly CallRow[]): Promise<AllocationFigure[]> {
  observer.observe({ entryTypes: ['gc'] });
  try {
    const figures: AllocationFigure[] = [];
    for (const row of rows) {
      await row.check();
      await row.batch(WARMUP_CALLS);
      const samples: number[] = [];
      for (let attempt = 0; samples.length < SAMPLES; attempt++) {
        if (attempt >= MAX_ATTEMPTS) {
          throw new Error(`Row ${row.id}: a garbage collection ran during every sample; run with --min-semi-space-size=64.`);
        }
        const sample = await sampleOnce(row);
        if (sample !== null) samples.push(sample);
      }
      const stats = summarizeSamples(samples);
      figures.push({ row, median: stats.median, min: stats.min, max: stats.max });
    }
    return figures;
  } finally {
    observer.disconnect();
  }
}

async function main(): Promise<void> {
  const headline = createHeadlineRows(BUDGET);
  const figures = await measureAllocations([headline.handWritten, headline.milpa, headline.handWrittenSilent, headline.milpaSilent]);
  const byId = new Map(figures.map((figure) => [figure.row.id, figure]));
  for (const { row, median, min, max } of figures) {
    const baseline = byId.get(row.baseline ?? '4');
    const versus =
      baseline === undefined || baseline.row === row ? '' : `  ×${(median / baseline.median).toFixed(2)} row ${baseline.row.id}`;
    process.stdout.write(
      `${row.id.padEnd(3)} ${row.label.padEnd(46)} ${median.toFixed(0).padStart(6)} B/call  ` +
        `(${min.toFixed(0)}–${max.toFixed(0)})${versus}\n`,
    );
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`[alloc] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
