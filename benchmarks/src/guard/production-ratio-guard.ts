/**
 * The regression guard of the production call, run by CI: `pnpm --filter @milpa/benchmarks run guard`.
 *
 * It times row 3 (Milpa `registry.call`, audit line to pino at info) against row 2 (the
 * hand-written pipeline writing one pino line) in one process, as `pnpm bench` does: each repeat
 * times a batch of each back to back by process CPU time, and the ratio is the median over the
 * repeats of row 3's batch divided by row 2's. Only that ratio is compared, never a time: both rows
 * run on the same machine in the same moments, so a slow or loaded machine divides out. It fails
 * (exit code 1) when the ratio is more than 25 % above the committed baseline in
 * `benchmarks/baseline/production-ratio.json`. A first measurement over the limit is measured
 * again and the two are pooled before deciding, so one unlucky stretch of a shared machine does
 * not fail the build. `--update` writes the measured ratio as the new baseline.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createHeadlineRows } from '../fixtures/headline-rows.js';
import { measureRows, type MeasureSettings } from '../harness/measure-rows.js';
import { summarizeSamples } from '../harness/sample-stats.js';

const BUDGET = 1_000_000_000_000;
/** How much worse than the baseline the ratio may get before the guard fails. */
const HEADROOM = 1.25;
const SETTINGS: MeasureSettings = { batchMs: 40, warmupMs: 400, repeats: 31 };
const BASELINE_FILE = fileURLToPath(new URL('../../baseline/production-ratio.json', import.meta.url));

/** The committed baseline: the production ratio (row 3 ÷ row 2) when it was last updated. */
interface ProductionBaseline {
  /** Row 3's time divided by row 2's, median of paired batches. */
  readonly ratio: number;
  /** When and where it was measured, for the reader. */
  readonly measured: string;
}

function readBaseline(): ProductionBaseline {
  const parsed = JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as Partial<ProductionBaseline>;
  if (typeof parsed.ratio !== 'number' || !Number.isFinite(parsed.ratio) || parsed.ratio <= 0) {
    throw new Error(`${BASELINE_FILE} has no positive ratio; run the guard with --update to write one.`);
  }
  return { ratio: parsed.ratio, measured: String(parsed.measured ?? 'unknown') };
}

/** The per-repeat ratios of row 3 to row 2 from one measurement. */
async function measureRatios(): Promise<number[]> {
  const { handWritten, milpa } = createHeadlineRows(BUDGET);
  const [hand, governed] = await measureRows([handWritten, milpa], SETTINGS, () => undefined);
  if (hand === undefined || governed === undefined) throw new Error('The guard measured fewer rows than it asked for.');
  return governed.cpuSamples.map((sample, index) => sample / (hand.cpuSamples[index] as number));
}

function describe(ratios: readonly number[]): string {
  const stats = summarizeSamples(ratios);
  return `×${stats.median.toFixed(2)} (repeats ${stats.min.toFixed(2)}–${stats.max.toFixed(2)}, ${stats.repeats} pairs)`;
}

async function main(): Promise<number> {
  const startedAt = performance.now();
  const update = process.argv.includes('--update');
  let ratios = await measureRatios();
  if (update) {
    const ratio = Number(summarizeSamples(ratios).median.toFixed(3));
    const measured = `${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${describe(ratios)}`;
    writeFileSync(BASELINE_FILE, `${JSON.stringify({ ratio, measured }, null, 2)}\n`);
    process.stdout.write(`[guard] wrote the production baseline ×${ratio} to ${BASELINE_FILE}\n`);
    return 0;
  }
  const baseline = readBaseline();
  const limit = baseline.ratio * HEADROOM;
  if (summarizeSamples(ratios).median > limit) {
    process.stdout.write(`[guard] first measurement ${describe(ratios)} is over the limit ×${limit.toFixed(2)}: measuring again\n`);
    ratios = [...ratios, ...(await measureRatios())];
  }
  const median = summarizeSamples(ratios).median;
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(0);
  const verdict = median > limit ? 'FAIL' : 'OK';
  process.stdout.write(
    `[guard] ${verdict}: production ratio (Milpa registry.call ÷ hand-written pipeline, both with a pino line) ` +
      `${describe(ratios)}; baseline ×${baseline.ratio} (${baseline.measured}), limit ×${limit.toFixed(2)}; ${seconds} s\n`,
  );
  if (median > limit) {
    process.stdout.write(
      '[guard] the governed call got more than 25 % slower against the hand-written pipeline. Profile it with ' +
        '`pnpm --filter @milpa/benchmarks run profile 3 5`; if the cost is intended, ' +
        'run the guard with --update and commit the baseline.\n',
    );
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[guard] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
