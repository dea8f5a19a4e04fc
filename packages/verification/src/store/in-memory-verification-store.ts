import { ExpiringMap, MilpaError, applyVerificationDecision } from '@milpa/core';
import type { VerificationDecision, VerificationDecisionOutcome, VerificationRecord, VerificationStore } from '@milpa/core';
import { VerificationError } from '../errors/verification-error.js';

/** Options of {@link InMemoryVerificationStore}. */
export interface InMemoryVerificationStoreOptions {
  /**
   * How long a finished record (resolved, or expired while pending) is kept before it is swept,
   * in milliseconds. Default one hour. Until then, resolving it again is refused as already
   * resolved or expired; afterwards its id is unknown (and free to reuse).
   */
  readonly retentionMs?: number;
  /**
   * The most requests opened without a deadline that may be pending at once, a whole number ≥ 1 or
   * `Infinity`. Default 10,000. Such a request never expires, so this is what keeps the store from
   * growing without bound: `open` refuses the next one with a `VerificationError` `RATE_LIMITED`
   * (`too_many_pending`) until one of them is decided. Requests with a deadline do not count: they
   * leave the store on their own.
   */
  readonly maxPending?: number;
}

/** The default retention of finished records: one hour. */
const DEFAULT_RETENTION_MS = 3_600_000;

/** The default cap on pending requests without a deadline. */
const DEFAULT_MAX_PENDING = 10_000;

/** True while `record` awaits a decision and has no deadline: nothing but a decision ends it. */
function isOpenEnded(record: VerificationRecord | undefined): boolean {
  // Stryker disable next-line ConditionalExpression: every caller passes a record (decide only asks once
  // the decision found one), so the undefined check never decides.
  return record !== undefined && record.result === null && record.expiresAt === null;
}

/**
 * The default {@link VerificationStore}: records in an `ExpiringMap`, in this process only. Every
 * operation runs synchronously, so each is atomic, and costs O(log n) amortized however many
 * records are held. A finished record expires once it has been finished for longer than `retentionMs`;
 * a pending record without a deadline never does, so at most `maxPending` of those are held and
 * `open` refuses more. Expired records are dropped when looked up and swept in bounded steps
 * (at most 512 per operation) by every operation.
 *
 * The store's clock is the latest time it has been told: the `createdAt` of an opened record or the
 * `at` of a decision, so it follows the verifier's clock rather than reading one of its own.
 *
 * @example
 * const store = new InMemoryVerificationStore({ retentionMs: 24 * 3_600_000 });
 * const verifier = new HumanVerifier({ store });
 */
export class InMemoryVerificationStore implements VerificationStore {
  /** The latest time the store has been told, in epoch milliseconds. */
  #now = Number.NEGATIVE_INFINITY;
  readonly #records = new ExpiringMap<string, VerificationRecord>({ now: () => this.#now });
  readonly #retentionMs: number;
  readonly #maxPending: number;
  /** Pending records without a deadline (see {@link isOpenEnded}). */
  #openEnded = 0;

  /**
   * Creates an empty store.
   * @throws MilpaError `INVALID_ARGUMENT` when `retentionMs` is not a non-negative finite number, or
   *   `maxPending` is not a whole number ≥ 1 or `Infinity`.
   */
  constructor(options: InMemoryVerificationStoreOptions = {}) {
    const retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
    // Stryker disable next-line ConditionalExpression: a value that is not a number also fails Number.isFinite,
    // so the typeof check only narrows the type.
    if (typeof retentionMs !== 'number' || !Number.isFinite(retentionMs) || retentionMs < 0) {
      throw new MilpaError(
        `InMemoryVerificationStore retentionMs must be a non-negative number of milliseconds, got ${String(retentionMs)}.`,
        { code: 'INVALID_ARGUMENT' },
      );
    }
    this.#retentionMs = retentionMs;
    const maxPending = options.maxPending ?? DEFAULT_MAX_PENDING;
    // Stryker disable next-line ConditionalExpression: a value that is not a number is neither an integer nor
    // Infinity, so the typeof check only narrows the type.
    if (typeof maxPending !== 'number' || !(Number.isInteger(maxPending) || maxPending === Number.POSITIVE_INFINITY) || maxPending < 1) {
      throw new MilpaError(
        `InMemoryVerificationStore maxPending must be a whole number of at least 1 or Infinity, got ${String(maxPending)}.`,
        {
          code: 'INVALID_ARGUMENT',
        },
      );
    }
    this.#maxPending = maxPending;
  }

  /** Number of records held, pending or finished (expired ones not swept yet included). */
  get size(): number {
    return this.#records.size;
  }

  /** Pending records without a deadline; `open` refuses a new one once there are `maxPending`. */
  get pendingWithoutDeadline(): number {
    return this.#openEnded;
  }

  /**
   * Stores `record` unless its id is taken by a record still within its retention.
   *
   * @throws VerificationError `RATE_LIMITED` (`too_many_pending`) when `record` is pending without
   *   a deadline and `maxPending` such records are already pending; nothing is stored.
   */
  open(record: VerificationRecord): boolean {
    this.#advance(record.createdAt);
    if (this.#records.has(record.id)) return false;
    const openEnded = isOpenEnded(record);
    if (openEnded && this.#openEnded >= this.#maxPending) {
      throw new VerificationError(
        `Verification request '${record.id}' refused: ${String(this.#maxPending)} requests without a deadline are already pending; ` +
          'decide some, or give requests a deadline (HumanVerifier ttlMs).',
        { code: 'RATE_LIMITED', kind: 'too_many_pending', requestId: record.id },
      );
    }
    this.#records.set(record.id, record, this.#expiryOf(record));
    if (openEnded) this.#openEnded += 1;
    return true;
  }

  /** The record with that id, or null. */
  get(id: string): VerificationRecord | null {
    return this.#records.get(id) ?? null;
  }

  /** Applies `decision` with {@link applyVerificationDecision} and stores the next record. */
  decide(id: string, decision: VerificationDecision): VerificationDecisionOutcome {
    this.#advance(decision.at);
    const current = this.#records.get(id);
    const outcome = applyVerificationDecision(current ?? null, decision);
    if (outcome.status !== 'refused') {
      this.#records.set(id, outcome.record, this.#expiryOf(outcome.record));
      if (isOpenEnded(current) && !isOpenEnded(outcome.record)) this.#openEnded -= 1;
    }
    return outcome;
  }

  #advance(at: Date): void {
    const time = at.getTime();
    // Stryker disable next-line EqualityOperator: at an equal time the assignment writes the same value.
    if (time > this.#now) this.#now = time;
  }

  /** Gone once finished (resolved, or past its deadline) for longer than the retention; never while pending without a deadline. */
  #expiryOf(record: VerificationRecord): number | null {
    const finishedAt = record.resolvedAt ?? record.expiresAt;
    return finishedAt === null ? null : finishedAt.getTime() + this.#retentionMs + 1;
  }
}
