/** The median and spread of one row's repeats, in nanoseconds per call. */
export interface SampleStats {
  /** The median of the repeats. */
  readonly median: number;
  /** The fastest repeat. */
  readonly min: number;
  /** The slowest repeat. */
  readonly max: number;
  /** Half the min–max range as a percentage of the median. */
  readonly spreadPercent: number;
  /** How many repeats were taken. */
  readonly repeats: number;
}

/**
 * The median of `numerator[i] / denominator[i]`: the ratio of two rows whose repeat `i` ran back to
 * back, so a slow moment of the machine divides out instead of landing in one row's median only.
 *
 * @throws Error when the two sample lists differ in length or are empty.
 */
export function pairedRatio(numerator: readonly number[], denominator: readonly number[]): number {
  if (numerator.length !== denominator.length) throw new Error('pairedRatio() needs samples from the same repeats.');
  return summarizeSamples(numerator.map((value, index) => value / denominator[index]!)).median;
}

/**
 * Summarises repeated measurements.
 *
 * @throws Error for an empty sample list (a row that was never measured is a harness bug).
 */
export function summarizeSamples(samples: readonly number[]): SampleStats {
  if (samples.length === 0) throw new Error('summarizeSamples() needs at least one sample.');
  const sorted = [...samples].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  const min = sorted[0]!;
  const max = sorted[sorted.length - 1]!;
  return { median, min, max, spreadPercent: median === 0 ? 0 : ((max - min) / 2 / median) * 100, repeats: sorted.length };
}
