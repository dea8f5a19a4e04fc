import { MilpaError } from '@milpa/core';

/** Options of a {@link ReadLedger}. */
export interface ReadLedgerOptions {
  /** The most runs remembered at once; the least recently used run is forgotten first. Default 256. */
  readonly maxRuns?: number;
  /** The most paths remembered per run; the oldest is forgotten first. Default 1024. */
  readonly maxPathsPerRun?: number;
  /** How long a run is remembered after its last use, in milliseconds. Default one hour. */
  readonly ttlMs?: number;
}

interface RunEntry {
  readonly paths: Set<string>;
  touchedAt: number;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new MilpaError(`ReadLedger ${name} must be a whole number ≥ 1, got ${String(value)}.`, { code: 'INVALID_ARGUMENT' });
  }
  return value;
}

/**
 * Which files each run has read, so `file_edit` only changes files the model has seen in the same
 * run. In memory and bounded: at most `maxRuns` runs (least recently used forgotten first), at most
 * `maxPathsPerRun` paths each (oldest forgotten first), and a run unused for `ttlMs` is forgotten.
 * Forgetting only ever makes an edit ask for a fresh read, never allows one.
 *
 * @example
 * const ledger = new ReadLedger({ maxRuns: 64 });
 * ledger.record('run_1', 'src/a.ts');
 * ledger.has('run_1', 'src/a.ts'); // true
 */
export class ReadLedger {
  /** The most runs remembered at once. */
  readonly maxRuns: number;
  /** The most paths remembered per run. */
  readonly maxPathsPerRun: number;
  /** How long an unused run is remembered, in milliseconds. */
  readonly ttlMs: number;
  // A Map keeps insertion order: re-inserting on use makes its first key the least recently used run.
  readonly #runs = new Map<string, RunEntry>();

  /** @throws MilpaError `INVALID_ARGUMENT` for a bound that is not a whole number ≥ 1. */
  constructor(options: ReadLedgerOptions = {}) {
    this.maxRuns = positiveInteger('maxRuns', options.maxRuns, 256);
    this.maxPathsPerRun = positiveInteger('maxPathsPerRun', options.maxPathsPerRun, 1024);
    this.ttlMs = positiveInteger('ttlMs', options.ttlMs, 60 * 60 * 1000);
  }

  /** Notes that `runId` has read the file at `relativePath` (relative to the workspace root). */
  record(runId: string, relativePath: string): void {
    const now = Date.now();
    this.#expire(now);
    const entry = this.#runs.get(runId) ?? { paths: new Set<string>(), touchedAt: now };
    this.#runs.delete(runId);
    entry.touchedAt = now;
    // Re-adding moves the path to the newest end, so the oldest read is the one forgotten.
    entry.paths.delete(relativePath);
    entry.paths.add(relativePath);
    while (entry.paths.size > this.maxPathsPerRun) entry.paths.delete(entry.paths.values().next().value as string);
    this.#runs.set(runId, entry);
    while (this.#runs.size > this.maxRuns) this.#runs.delete(this.#runs.keys().next().value as string);
  }

  /** True when `runId` has read `relativePath` and neither has been forgotten. */
  has(runId: string, relativePath: string): boolean {
    this.#expire(Date.now());
    return this.#runs.get(runId)?.paths.has(relativePath) === true;
  }

  /** Forgets everything `runId` has read (e.g. when the host ends the run). */
  forgetRun(runId: string): void {
    this.#runs.delete(runId);
  }

  /** How many runs are remembered now. */
  get runCount(): number {
    this.#expire(Date.now());
    return this.#runs.size;
  }

  #expire(now: number): void {
    for (const [runId, entry] of this.#runs) {
      if (now - entry.touchedAt >= this.ttlMs) this.#runs.delete(runId);
    }
  }
}
