import { InvocationHistory, MilpaError, type InvocationHistoryStore, type InvocationObservation } from '@milpa/core';

/** Options of {@link InMemoryInvocationHistoryStore}. */
export interface InMemoryInvocationHistoryStoreOptions {
  /** Runs held at once (default 10,000); opening one more forgets the least recently used run. */
  readonly maxRuns?: number;
  /**
   * Observations kept per run (default 1,000); past it the oldest are dropped and the run's history
   * becomes incomplete, so rules that need a complete history refuse rather than miscount.
   */
  readonly maxObservationsPerRun?: number;
  /** A run untouched for this long is forgotten (default 86,400 s: a day). */
  readonly idleTtlSeconds?: number;
  /** The clock, in epoch milliseconds (for tests). Default `Date.now`. */
  readonly now?: () => number;
}

interface Run {
  readonly observations: InvocationObservation[];
  complete: boolean;
  touchedAt: number;
}

function whole(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new MilpaError(`InMemoryInvocationHistoryStore option ${name} must be a whole number >= 1, got ${String(value)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return value;
}

/**
 * Keeps each run's invocation history in process memory — the default of a `ToolRegistry`. It is
 * bounded: at most `maxRuns` runs (least recently used forgotten first), `maxObservationsPerRun`
 * observations per run, and runs idle longer than `idleTtlSeconds` are forgotten. Forgetting never
 * makes a history look complete: a forgotten run is unknown, and a trimmed run is incomplete.
 * Every history is lost when the process ends; use a durable store to keep runs across restarts
 * or share them between processes.
 *
 * @example
 * const registry = new ToolRegistry({ historyStore: new InMemoryInvocationHistoryStore({ maxRuns: 1_000 }) });
 */
export class InMemoryInvocationHistoryStore implements InvocationHistoryStore {
  /** Insertion order is recency order: a touched run is moved to the end. */
  readonly #runs = new Map<string, Run>();
  readonly #maxRuns: number;
  readonly #maxObservations: number;
  readonly #idleMs: number;
  readonly #now: () => number;

  /** @throws MilpaError `INVALID_ARGUMENT` for a bound that is not a whole number >= 1. */
  constructor(options: InMemoryInvocationHistoryStoreOptions = {}) {
    this.#maxRuns = whole('maxRuns', options.maxRuns, 10_000);
    this.#maxObservations = whole('maxObservationsPerRun', options.maxObservationsPerRun, 1_000);
    this.#idleMs = whole('idleTtlSeconds', options.idleTtlSeconds, 86_400) * 1000;
    this.#now = options.now ?? Date.now;
  }

  /** The number of runs held (idle ones not yet forgotten included). */
  get size(): number {
    return this.#runs.size;
  }

  /** Opens `runId` with a complete, empty history; false (and no change) when the run is known. */
  startRun(runId: string): boolean {
    const now = this.#now();
    if (this.#live(runId, now) !== undefined) return false;
    this.#insert(runId, { observations: [], complete: true, touchedAt: now });
    return true;
  }

  /** The run's history, or null when the run is unknown, forgotten or idle past its TTL. */
  load(runId: string): InvocationHistory | null {
    const run = this.#live(runId, this.#now());
    return run === undefined ? null : new InvocationHistory(run.observations, run.complete);
  }

  /** Appends one observation; an unknown run is recorded as incomplete. */
  append(runId: string, observation: InvocationObservation): void {
    const now = this.#now();
    let run = this.#live(runId, now);
    if (run === undefined) {
      run = { observations: [], complete: false, touchedAt: now };
      this.#insert(runId, run);
    }
    run.observations.push(Object.freeze({ tool: observation.tool, outcome: observation.outcome, target: observation.target }));
    if (run.observations.length > this.#maxObservations) {
      run.observations.shift();
      run.complete = false;
    }
  }

  /** The run, moved to the most recent position; undefined (and forgotten) when idle too long. */
  #live(runId: string, now: number): Run | undefined {
    const run = this.#runs.get(runId);
    if (run === undefined) return undefined;
    this.#runs.delete(runId);
    if (now - run.touchedAt >= this.#idleMs) return undefined;
    run.touchedAt = now;
    this.#runs.set(runId, run);
    return run;
  }

  #insert(runId: string, run: Run): void {
    while (this.#runs.size >= this.#maxRuns) {
      const oldest = this.#runs.keys().next().value as string;
      this.#runs.delete(oldest);
    }
    this.#runs.set(runId, run);
  }
}
