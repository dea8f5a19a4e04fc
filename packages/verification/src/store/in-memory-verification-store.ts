import { ExpiringMap, MilpaError } from '@milpa/core';
import type { VerificationDecision, VerificationDecisionOutcome, VerificationRecord, VerificationStore } from '@milpa/core';
import { applyVerificationDecision } from './apply-verification-decision.js';

/** Options of {@link InMemoryVerificationStore}. */
export interface InMemoryVerificationStoreOptions {
  /**
   * How long a finished record (resolved, or expired while pending) is kept before it is swept,
   * in milliseconds. Default one hour. Until then, resolving it again is refused as already
   * resolved or expired; afterwards its id is unknown (and free to reuse).
   */
  readonly retentionMs?: number;
}

/** The default retention of finished records: one hour. */
const DEFAULT_RETENTION_MS = 3_600_000;

/**
 * The default {@link VerificationStore}: records in an `ExpiringMap`, in this process only. Every
 * operation runs synchronously, so each is atomic. A finished record expires once it has been
 * finished for longer than `retentionMs`; a pending record without a deadline never does. Expired
 * records are dropped when looked up and swept in bounded steps by every operation.
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

  /**
   * Creates an empty store.
   * @throws MilpaError `INVALID_ARGUMENT` when `retentionMs` is not a non-negative finite number.
   */
  constructor(options: InMemoryVerificationStoreOptions = {}) {
    const retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
    if (typeof retentionMs !== 'number' || !Number.isFinite(retentionMs) || retentionMs < 0) {
      throw new MilpaError(
        `InMemoryVerificationStore retentionMs must be a non-negative number of milliseconds, got ${String(retentionMs)}.`,
        { code: 'INVALID_ARGUMENT' },
      );
    }
    this.#retentionMs = retentionMs;
  }

  /** Number of records held, pending or finished (expired ones not swept yet included). */
  get size(): number {
    return this.#records.size;
  }

  /** Stores `record` unless its id is taken by a record still within its retention. */
  open(record: VerificationRecord): boolean {
    this.#advance(record.createdAt);
    if (this.#records.has(record.id)) return false;
    this.#records.set(record.id, record, this.#expiryOf(record));
    return true;
  }

  /** The record with that id, or null. */
  get(id: string): VerificationRecord | null {
    return this.#records.get(id) ?? null;
  }

  /** Applies `decision` with {@link applyVerificationDecision} and stores the next record. */
  decide(id: string, decision: VerificationDecision): VerificationDecisionOutcome {
    this.#advance(decision.at);
    const outcome = applyVerificationDecision(this.#records.get(id) ?? null, decision);
    if (outcome.status !== 'refused') this.#records.set(id, outcome.record, this.#expiryOf(outcome.record));
    return outcome;
  }

  #advance(at: Date): void {
    const time = at.getTime();
    if (time > this.#now) this.#now = time;
  }

  /** Gone once finished (resolved, or past its deadline) for longer than the retention; never while pending without a deadline. */
  #expiryOf(record: VerificationRecord): number | null {
    const finishedAt = record.resolvedAt ?? record.expiresAt;
    return finishedAt === null ? null : finishedAt.getTime() + this.#retentionMs + 1;
  }
}
