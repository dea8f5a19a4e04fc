import {
  InvocationHistory,
  MilpaError,
  type InFlightInvocation,
  type InvocationHistoryStore,
  type InvocationObservation,
  type InvocationReservation,
} from '@milpa/core';

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

interface Place extends InFlightInvocation {
  readonly expiresAt: number;
}

interface Run {
  readonly observations: InvocationObservation[];
  /** The calls holding a place, by reservation id, in the order they took it. */
  readonly places: Map<string, Place>;
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
 * `reserve` and `settle` are synchronous, so each is one atomic step of the process: parallel
 * calls of one run take distinct places and each sees the calls ahead of it. A place whose lease
 * ran out is dropped by the next operation on its run, which marks the run incomplete.
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
  #placesTaken = 0;

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
    this.#insert(runId, { observations: [], places: new Map(), complete: true, touchedAt: now });
    return true;
  }

  /** The run's history, or null when the run is unknown, forgotten or idle past its TTL. */
  load(runId: string): InvocationHistory | null {
    const run = this.#live(runId, this.#now());
    return run === undefined ? null : new InvocationHistory(run.observations, run.complete, [...run.places.values()]);
  }

  /** Appends one observation; an unknown run is recorded as incomplete. */
  append(runId: string, observation: InvocationObservation): void {
    this.#record(this.#known(runId, this.#now()), observation);
  }

  /**
   * Takes the next place in the run for `call` (its tool and target), held for `leaseMs`, and
   * answers it with the history up to that place. An unknown run is recorded as incomplete.
   *
   * @throws MilpaError `INVALID_ARGUMENT` when `leaseMs` is not a whole number >= 1; nothing changes then.
   */
  reserve(runId: string, call: InFlightInvocation, leaseMs: number): InvocationReservation {
    if (typeof leaseMs !== 'number' || !Number.isSafeInteger(leaseMs) || leaseMs < 1) {
      throw new MilpaError(`InMemoryInvocationHistoryStore.reserve: leaseMs must be a whole number >= 1, got ${String(leaseMs)}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    const now = this.#now();
    const run = this.#known(runId, now);
    const history = new InvocationHistory(run.observations, run.complete, [...run.places.values()]);
    this.#placesTaken += 1;
    const id = String(this.#placesTaken);
    run.places.set(id, Object.freeze({ tool: call.tool, target: call.target, expiresAt: now + leaseMs }));
    return Object.freeze({ id, history });
  }

  /** Releases place `reservationId` and appends `observation`, in one step; a dropped place still gets its observation. */
  settle(runId: string, reservationId: string, observation: InvocationObservation): void {
    const run = this.#known(runId, this.#now());
    run.places.delete(reservationId);
    this.#record(run, observation);
  }

  /** The live run, or a new incomplete one in its place. */
  #known(runId: string, now: number): Run {
    let run = this.#live(runId, now);
    if (run === undefined) {
      run = { observations: [], places: new Map(), complete: false, touchedAt: now };
      this.#insert(runId, run);
    }
    return run;
  }

  #record(run: Run, observation: InvocationObservation): void {
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
    // A call whose lease ran out may or may not have run: drop its place, and the run can no longer prove complete.
    for (const [id, place] of run.places) {
      if (place.expiresAt > now) continue;
      run.places.delete(id);
      run.complete = false;
    }
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
