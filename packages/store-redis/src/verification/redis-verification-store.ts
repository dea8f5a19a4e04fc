import {
  applyVerificationDecision,
  type VerificationDecision,
  type VerificationDecisionOutcome,
  type VerificationRecord,
  type VerificationStore,
} from '@milpa/core';
import { RetainedRecords, type RetainedWrite } from '../connection/retained-records.js';
import type { StoreConnection } from '../connection/store-connection.js';
import { decodeVerificationRecord, encodeVerificationRecord } from './verification-record-codec.js';

/**
 * The {@link VerificationStore} over Redis: a verification request opened by one process can be
 * granted or rejected by any other process that shares the Redis server.
 *
 * Each request is one key, `<prefix>verification:<id>`, holding the record as JSON. `open` and
 * `decide` read it, apply the same rules as every other store (`applyVerificationDecision`) and
 * write the next record through one compare-and-set Lua script that succeeds only if the key
 * still holds what was read; when another process wrote first, the store reads again and decides
 * anew. So concurrent grants of a `single` request resolve it exactly once and one principal's
 * repeated grants never satisfy a `dual` request, across processes too.
 *
 * A finished record (resolved, or past its deadline) is kept for the retention given to
 * {@link RedisStores.connect} and then forgotten: its key expires on the server, and its id is
 * free again. A pending record without a deadline is kept until it is decided. Payloads, verdict
 * metadata and changes are stored as JSON and must be plain JSON data.
 *
 * Get one from {@link RedisStores.connect}.
 *
 * @example
 * const stores = await RedisStores.connect({ url: 'redis://127.0.0.1:6379' });
 * const verifier = new HumanVerifier({ store: stores.verification });
 */
export class RedisVerificationStore implements VerificationStore {
  readonly #records: RetainedRecords<VerificationRecord>;
  readonly #retentionMs: number;

  /** @internal Use {@link RedisStores.connect}. */
  constructor(connection: StoreConnection, retentionMs: number) {
    this.#records = new RetainedRecords(connection, 'verification', 'verification', decodeVerificationRecord);
    this.#retentionMs = retentionMs;
  }

  /**
   * Stores `record` unless its id is taken by a record still within its retention.
   *
   * @throws MilpaError `INVALID_ARGUMENT` when its payload is not plain JSON data.
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the key's data is malformed.
   */
  async open(record: VerificationRecord): Promise<boolean> {
    // Encoded before Redis is asked, so data that is not JSON is the caller's error and nothing is sent.
    return this.#records.insert(record.id, this.#write(record));
  }

  /**
   * The record with that id, or null.
   *
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the key's data is malformed.
   */
  async get(id: string): Promise<VerificationRecord | null> {
    return typeof id === 'string' ? this.#records.get(id) : null;
  }

  /**
   * Checks `decision` against the request `id` and stores the next record, atomically.
   *
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the key's data is malformed;
   *   nothing changed then (unless the failure is a timeout, when the change may have been applied).
   */
  async decide(id: string, decision: VerificationDecision): Promise<VerificationDecisionOutcome> {
    return this.#records.update<VerificationDecisionOutcome>(id, (current) => {
      const outcome = applyVerificationDecision(current, decision);
      return outcome.status === 'refused' ? { answer: outcome } : { answer: outcome, write: this.#write(outcome.record) };
    });
  }

  /** `record` to store: forgotten `retentionMs` after it finished, or kept while nothing but a decision can end it. */
  #write(record: VerificationRecord): RetainedWrite {
    const finishedAt = record.resolvedAt ?? record.expiresAt;
    const forgetAt = finishedAt === null ? null : finishedAt.getTime() + this.#retentionMs + 1;
    return { text: encodeVerificationRecord(record, forgetAt), forgetAt };
  }
}
