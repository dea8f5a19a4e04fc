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
}

const NO_OBSERVATIONS: readonly InvocationObservation[] = Object.freeze([]);

function matchesOne<T>(expected: T | readonly T[] | undefined, actual: T): boolean {
  if (expected === undefined) return true;
  return Array.isArray(expected) ? (expected as readonly T[]).includes(actual) : expected === actual;
}

function matches(filter: InvocationObservationFilter, observation: InvocationObservation): boolean {
  if (!matchesOne(filter.tool, observation.tool)) return false;
  if (!matchesOne(filter.outcome, observation.outcome)) return false;
  if (filter.targetKind !== undefined && observation.target?.kind !== filter.targetKind) return false;
  if (filter.targetId !== undefined && observation.target?.id !== filter.targetId) return false;
  return true;
}

/**
 * A run's earlier calls, in the order they ended, independent of any model transcript, and whether
 * the list is known to be complete. A history is complete only for a run that was opened fresh and
 * recorded every call since; a call outside any run, or in a run the store does not know (a
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

  /** A history of `observations` (copied and frozen). */
  constructor(observations: readonly InvocationObservation[], complete: boolean) {
    this.observations =
      observations.length === 0 ? NO_OBSERVATIONS : Object.freeze(observations.map((observation) => Object.freeze({ ...observation })));
    this.complete = complete === true;
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

  /** The number of observations. */
  get length(): number {
    return this.observations.length;
  }

  /** How many observations match `filter` (every one, without a filter). */
  count(filter: InvocationObservationFilter = {}): number {
    let total = 0;
    for (const observation of this.observations) if (matches(filter, observation)) total++;
    return total;
  }

  /** True when at least one observation matches `filter`. */
  some(filter: InvocationObservationFilter): boolean {
    return this.observations.some((observation) => matches(filter, observation));
  }
}
