import type { InvocationHistory, InvocationObservation } from '../invocation/invocation-history.js';

/**
 * Keeps each run's invocation history: per run, the tool, outcome and target reference of every
 * call, in the order the calls ended — never arguments or results. Implementations may be async (a
 * store shared across processes).
 *
 * Completeness is the store's to prove: a run opened with {@link InvocationHistoryStore.startRun}
 * is complete while every observation since was recorded; a run the store does not know (never
 * opened here, forgotten, evicted) loads as `null`, which the runtime treats as an incomplete
 * history, and observations appended to such a run never make it complete.
 */
export interface InvocationHistoryStore {
  /**
   * Opens run `runId` with a complete, empty history. Answers false, changing nothing, when the
   * store already knows the run: an existing history is never reset.
   */
  startRun(runId: string): boolean | PromiseLike<boolean>;
  /** The run's history, or null when the store does not know the run. */
  load(runId: string): InvocationHistory | null | PromiseLike<InvocationHistory | null>;
  /**
   * Appends one observation to the run. A run the store does not know is recorded as incomplete.
   * A store that must drop observations (a bound) marks the run incomplete rather than lose them
   * silently.
   */
  append(runId: string, observation: InvocationObservation): void | PromiseLike<void>;
}
