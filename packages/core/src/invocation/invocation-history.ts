import type { InvocationOutcome } from './invocation-outcome.js';
import type { InvocationTarget } from './invocation-target.js';

/**
 * One earlier call of a run: which tool, how it ended, and what it acted on. Never its arguments
 * or its result.
 */
export interface InvocationObservation {
  /** The tool's name. */
  readonly tool: string;
  /** How the call ended. */
  readonly outcome: InvocationOutcome;
  /** The target reference a resolver gave it, or null. */
  readonly target: InvocationTarget | null;
}

/**
 * A call of the run that has taken its place in the history but not ended yet: its tool and
 * target, without an outcome. Calls of one run that overlap see each other this way, so a limit
 * counts the calls that may still execute.
 */
export interface InFlightInvocation {
  /** The tool's name. */
  readonly tool: string;
  /** The target reference a resolver gave it, or null. */
  readonly target: InvocationTarget | null;
}

/** What {@link InvocationHistory.count} and {@link InvocationHistory.some} match on; absent fields match anything. */
export interface InvocationObservationFilter {
  /** Only calls of this tool (or of one of these tools). */
  readonly tool?: string | readonly string[];
  /** Only calls that ended this way (or one of these ways). */
  readonly outcome?: InvocationOutcome | readonly InvocationOutcome[];
  /** Only calls on a target of this kind. */
  readonly targetKind?: string;
  /** Only calls on a target with this id. */
  readonly targetId?: string;
  /**
   * Whether calls still in flight count (default true). A call in flight may still end with any
   * outcome, so it matches every `outcome` filter: the count is then the most the run can reach
   * once those calls end — the reading a limit needs ("at most three deletions"). Pass false for a
   * prerequisite ("only after a search executed"), which only calls that have ended can satisfy.
   */
  readonly includeInFlight?: boolean;
}

const NO_OBSERVATIONS: readonly InvocationObservation[] = Object.freeze([]);
const NO_CALLS_IN_FLIGHT: readonly InFlightInvocation[] = Object.freeze([]);

function matchesOne<T>(expected: T | readonly T[] | undefined, actual: T): boolean {
  if (expected === undefined) return true;
  return Array.isArray(expected) ? (expected as readonly T[]).includes(actual) : expected === actual;
}

function matchesCall(filter: InvocationObservationFilter, call: InFlightInvocation): boolean {
  if (!matchesOne(filter.tool, call.tool)) return false;
  if (filter.targetKind !== undefined && call.target?.kind !== filter.targetKind) return false;
  if (filter.targetId !== undefined && call.target?.id !== filter.targetId) return false;
  return true;
}

function matches(filter: InvocationObservationFilter, observation: InvocationObservation): boolean {
  if (!matchesOne(filter.outcome, observation.outcome)) return false;
  return matchesCall(filter, observation);
}

function freezeTarget(target: InvocationTarget | null): InvocationTarget | null {
  return target === null || target === undefined ? null : Object.freeze({ kind: target.kind, id: target.id });
}

/**
 * A run's earlier calls, in the order they ended, independent of any model transcript, and whether
 * the list is known to be complete. Beside them, the calls of the run that took their place before
 * this one and have not ended yet ({@link InvocationHistory.inFlight}): `count` and `some` include
 * those by default, so calls of one run made in parallel cannot all pass a limit together. A history is complete only for a run that was
 * opened fresh and recorded every call since; a call outside any run, or in a run the store does not know (a
 * restarted process, an evicted run, a forged run id), sees an incomplete history — and a rule that
 * requires a complete one refuses the call.
 *
 * @example
 * history.count({ tool: 'delete_note', outcome: 'executed' }); // deletions so far in this run
 * history.some({ tool: 'refund_order', outcome: 'executed', targetId: '1042' }); // refunded already?
 */
export class InvocationHistory {
  /** The observations, oldest first (frozen). */
  readonly observations: readonly InvocationObservation[];
  /** True when the list is proven to hold every call of the run. */
  readonly complete: boolean;
  /** The calls of the run that took their place before this one and have not ended yet, oldest first (frozen). */
  readonly inFlight: readonly InFlightInvocation[];

  /** A history of `observations` and of the calls still `inFlight` (both copied and frozen). */
  constructor(
    observations: readonly InvocationObservation[],
    complete: boolean,
    inFlight: readonly InFlightInvocation[] = NO_CALLS_IN_FLIGHT,
  ) {
    this.observations =
      observations.length === 0 ? NO_OBSERVATIONS : Object.freeze(observations.map((observation) => Object.freeze({ ...observation })));
    this.complete = complete === true;
    this.inFlight =
      inFlight.length === 0
        ? NO_CALLS_IN_FLIGHT
        : Object.freeze(inFlight.map((call) => Object.freeze({ tool: call.tool, target: freezeTarget(call.target) })));
    Object.freeze(this);
  }

  /** The complete, empty history of a freshly opened run. */
  static empty(): InvocationHistory {
    return new InvocationHistory(NO_OBSERVATIONS, true);
  }

  /** The history of a call that cannot prove its run's earlier calls: empty and incomplete. */
  static unknown(): InvocationHistory {
    return new InvocationHistory(NO_OBSERVATIONS, false);
  }

  /** The number of observations (calls that have ended; the calls in flight are not counted). */
  get length(): number {
    return this.observations.length;
  }

  /**
   * How many calls match `filter` (every one, without a filter): the observations, plus the calls
   * in flight unless `includeInFlight` is false. A call in flight matches whatever outcome the
   * filter names, since it may still end that way.
   */
  count(filter: InvocationObservationFilter = {}): number {
    let total = 0;
    for (const observation of this.observations) if (matches(filter, observation)) total++;
    if (filter.includeInFlight === false) return total;
    for (const call of this.inFlight) if (matchesCall(filter, call)) total++;
    return total;
  }

  /** True when at least one call matches `filter`, counting the calls in flight as {@link InvocationHistory.count} does. */
  some(filter: InvocationObservationFilter): boolean {
    if (this.observations.some((observation) => matches(filter, observation))) return true;
    return filter.includeInFlight !== false && this.inFlight.some((call) => matchesCall(filter, call));
  }
}
