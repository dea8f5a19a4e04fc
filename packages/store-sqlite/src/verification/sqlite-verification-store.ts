import {
  applyVerificationDecision,
  type VerificationDecision,
  type VerificationDecisionOutcome,
  type VerificationRecord,
  type VerificationStore,
} from '@milpa/core';
import { fromPlainJsonText, readVerificationRecordJson, toPlainJsonText, verificationRecordToJson } from '@milpa/core/kit';
import { malformedRow, type StoreDatabase } from '../database/store-database.js';

/**
 * Writes a record as the JSON `record_json` holds.
 *
 * @throws MilpaError `INVALID_ARGUMENT` when its payload or metadata is not plain JSON.
 */
function encodeVerificationRecord(record: VerificationRecord): string {
  return toPlainJsonText(verificationRecordToJson(record), `Verification request '${record.id}'`);
}

/**
 * Reads the record `id` back from its `record_json`.
 *
 * @throws SqliteStoreError `malformed` when the column holds something else.
 */
function decodeVerificationRecord(id: string, json: unknown): VerificationRecord {
  const read = readVerificationRecordJson(id, fromPlainJsonText(json));
  if (!read.ok) throw malformedRow('verification', `verification request '${id}' ${read.error}`, read.cause);
  return read.value;
}

interface RecordRow {
  readonly record_json: unknown;
  readonly forget_at: unknown;
}

/**
 * The {@link VerificationStore} over the `verification_records` table of a SQLite file: pending
 * verifications survive a restart, and a request opened by one process can be decided by another.
 *
 * `decide` reads the record, applies the decision and writes the next record in one
 * `BEGIN IMMEDIATE` transaction, so concurrent grants of a `single` request resolve it exactly
 * once and one principal's repeated grants never satisfy a `dual` request, across processes too.
 * The checks, in order: unknown id (`not_found`), a final verdict (`already_resolved`), a decision
 * after `expiresAt` (`expired`), another subject (`subject_mismatch`), a grant by the requester
 * (`self_approval`), a second grant by one principal (`duplicate_approval`); the same rules as
 * every other store (`applyVerificationDecision`), including a grant that changes arguments.
 *
 * A finished record (resolved, or past its deadline) is kept for the retention given to
 * {@link SqliteStores.open} and then forgotten: swept in bounded steps, and unknown to `get` and
 * `decide`, so its id is free again. Payloads and verdict metadata are stored as JSON and must be
 * plain JSON data.
 *
 * Get one from {@link SqliteStores.open}.
 *
 * @example
 * const stores = SqliteStores.open('/var/lib/my-agent/milpa.db');
 * const verifier = new HumanVerifier({ store: stores.verification });
 */
export class SqliteVerificationStore implements VerificationStore {
  readonly #database: StoreDatabase;
  readonly #retentionMs: number;

  /** @internal Use {@link SqliteStores.open}. */
  constructor(database: StoreDatabase, retentionMs: number) {
    this.#database = database;
    this.#retentionMs = retentionMs;
  }

  /**
   * Stores `record` unless its id is taken by a record still within its retention.
   *
   * @throws MilpaError `INVALID_ARGUMENT` when its payload is not plain JSON data.
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails.
   */
  open(record: VerificationRecord): boolean {
    const json = encodeVerificationRecord(record);
    return this.#database.transaction('verification', (db) => {
      if (
        this.#live(
          db.prepare('SELECT record_json, forget_at FROM verification_records WHERE id = ?').get(record.id) as RecordRow | undefined,
        )
      )
        return false;
      db.prepare('INSERT OR REPLACE INTO verification_records (id, record_json, forget_at) VALUES (?, ?, ?)').run(
        record.id,
        json,
        this.#forgetAt(record),
      );
      return true;
    });
  }

  /**
   * The record with that id, or null.
   *
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails or the row is malformed.
   */
  get(id: string): VerificationRecord | null {
    return this.#database.read('verification', (db) =>
      this.#load(db.prepare('SELECT record_json, forget_at FROM verification_records WHERE id = ?').get(id) as RecordRow | undefined, id),
    );
  }

  /**
   * Checks `decision` against the request `id` and stores the next record, atomically.
   *
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails or the row is malformed;
   *   nothing changed then.
   */
  decide(id: string, decision: VerificationDecision): VerificationDecisionOutcome {
    return this.#database.transaction('verification', (db) => {
      const record = this.#load(
        db.prepare('SELECT record_json, forget_at FROM verification_records WHERE id = ?').get(id) as RecordRow | undefined,
        id,
      );
      const outcome = applyVerificationDecision(record, decision);
      if (outcome.status === 'refused') return outcome;
      const next = outcome.record;
      db.prepare('UPDATE verification_records SET record_json = ?, forget_at = ? WHERE id = ?').run(
        encodeVerificationRecord(next),
        this.#forgetAt(next),
        id,
      );
      return outcome;
    });
  }

  #live(row: RecordRow | undefined): row is RecordRow {
    return row !== undefined && !(typeof row.forget_at === 'number' && row.forget_at <= this.#database.now());
  }

  #load(row: RecordRow | undefined, id: string): VerificationRecord | null {
    return this.#live(row) ? decodeVerificationRecord(id, row.record_json) : null;
  }

  /** When a finished record is forgotten; null while nothing but a decision can end it. */
  #forgetAt(record: VerificationRecord): number | null {
    const finishedAt = record.resolvedAt ?? record.expiresAt;
    return finishedAt === null ? null : finishedAt.getTime() + this.#retentionMs + 1;
  }
}
