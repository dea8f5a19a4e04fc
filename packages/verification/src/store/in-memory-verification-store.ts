import { MilpaError } from '@milpa/core';
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
 * The default {@link VerificationStore}: records in a `Map`, in this process only. Every operation
 * runs synchronously, so each is atomic. Finished records are swept lazily when a new request is
 * opened, once they have been finished for longer than `retentionMs`.
 *
 * @example
 * const store = new InMemoryVerificationStore({ retentionMs: 24 * 3_600_000 });
 * const verifier = new HumanVerifier({ store });
 */
export class InMemoryVerificationStore implements VerificationStore {
  readonly #records = new Map<string, VerificationRecord>();
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

  /** Number of records held, pending or finished. */
  get size(): number {
    return this.#records.size;
  }

  /** Stores `record` unless its id is taken; sweeps finished records past their retention first. */
  open(record: VerificationRecord): boolean {
    this.#sweep(record.createdAt.getTime());
    if (this.#records.has(record.id)) return false;
    this.#records.set(record.id, record);
    return true;
  }

  /** The record with that id, or null. */
  get(id: string): VerificationRecord | null {
    return this.#records.get(id) ?? null;
  }

  /** Applies `decision` with {@link applyVerificationDecision} and stores the next record. */
  decide(id: string, decision: VerificationDecision): VerificationDecisionOutcome {
    const outcome = applyVerificationDecision(this.#records.get(id) ?? null, decision);
    if (outcome.status !== 'refused') this.#records.set(id, outcome.record);
    return outcome;
  }

  #sweep(now: number): void {
    const cutoff = now - this.#retentionMs;
    for (const [id, record] of this.#records) {
      const finishedAt = record.resolvedAt ?? record.expiresAt;
      if (finishedAt !== null && finishedAt.getTime() < cutoff) this.#records.delete(id);
    }
  }
}
