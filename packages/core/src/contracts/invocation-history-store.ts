import type { InFlightInvocation, InvocationHistory, InvocationObservation } from '../invocation/invocation-history.js';

/**
 * A call's place in its run's history, taken by {@link InvocationHistoryStore.reserve} before its
 * rules run.
 */
export interface InvocationReservation {
  /** Names the reservation to {@link InvocationHistoryStore.settle}; unique within the run. */
  readonly id: string;
  /**
   * The run as the call found it when it took its place: every call that ended before, and the
   * calls that took their place earlier and are still in flight (`history.inFlight`) — never the
   * call itself, nor a call that reserved after it.
   */
  readonly history: InvocationHistory;
}

/**
 * Keeps each run's invocation history: per run, the tool, outcome and target reference of every
 * call, in the order the calls ended — never arguments or results. Implementations may be async (a
 * store shared across processes).
 *
 * Completeness is the store's to prove: a run opened with {@link InvocationHistoryStore.startRun}
 * is complete while every observation since was recorded; a run the store does not know (never
 * opened here, forgotten, evicted) loads as `null`, which the runtime treats as an incomplete
 * history, and observations appended to such a run never make it complete.
 *
 * **Per-run limits hold for parallel calls.** A call of a run takes its place with
 * {@link InvocationHistoryStore.reserve} before its invocation rules run, and gets back the history
 * up to its place: the calls that ended, and the ones that reserved before it and are still in
 * flight. Reserving is one atomic step of the store (one transaction, one server-side script), so
 * the places of overlapping calls — in one process or many — form one order, and each call's rules
 * judge it against every call ahead of it. A rule "at most three deletions per run" counts the
 * deletions in flight ahead of a call as deletions (see `InvocationHistory.count`), so of twenty
 * parallel deletions the first three in that order pass and the rest are refused, even if the
 * first three then fail: a limit errs towards refusing. When the call ends,
 * {@link InvocationHistoryStore.settle} turns its place into its observation in one step, so the
 * call is never missing from what a later call sees, nor counted twice.
 *
 * **Leases.** A place is held for the lease the runtime gives (`leaseMs`). A call that never
 * settles — its process crashed — loses its place when the lease runs out: the next operation on
 * the run drops it and marks the run incomplete, since that call may or may not have run. Rules
 * that require a complete history then refuse the run's calls; the other rules go on without the
 * lost call. A call that settles after its lease ran out is still recorded.
 */
export interface InvocationHistoryStore {
  /**
   * Opens run `runId` with a complete, empty history. Answers false, changing nothing, when the
   * store already knows the run: an existing history is never reset.
   */
  startRun(runId: string): boolean | PromiseLike<boolean>;
  /**
   * The run's history, or null when the store does not know the run. Its `inFlight` lists every
   * call of the run holding a live place.
   */
  load(runId: string): InvocationHistory | null | PromiseLike<InvocationHistory | null>;
  /**
   * Appends one observation to the run. A run the store does not know is recorded as incomplete.
   * A store that must drop observations (a bound) marks the run incomplete rather than lose them
   * silently. For a call that reserved a place, use {@link InvocationHistoryStore.settle}.
   */
  append(runId: string, observation: InvocationObservation): void | PromiseLike<void>;
  /**
   * Takes the next place in run `runId` for a call of `call.tool` on `call.target`, held for
   * `leaseMs` milliseconds, and answers it with the history up to that place — in one atomic step,
   * so two calls never get the same place nor miss each other. First drops the run's places whose
   * lease has run out (marking the run incomplete). A run the store does not know is recorded as
   * incomplete, as {@link InvocationHistoryStore.append} does.
   */
  reserve(runId: string, call: InFlightInvocation, leaseMs: number): InvocationReservation | PromiseLike<InvocationReservation>;
  /**
   * Ends the call holding place `reservationId` of run `runId`: in one atomic step its place is
   * released and `observation` (its tool, outcome and target only) is appended, as
   * {@link InvocationHistoryStore.append} would. A place already dropped (lease run out, run
   * forgotten) or never taken still gets its observation appended; settling one place twice
   * appends twice, so the runtime settles each place once.
   */
  settle(runId: string, reservationId: string, observation: InvocationObservation): void | PromiseLike<void>;
}
