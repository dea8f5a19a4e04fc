import {
  applyVerificationDecision,
  type VerificationDecision,
  type VerificationDecisionOutcome,
  type VerificationRecord,
  type VerificationStore,
} from '@milpa/core';
import { fromPlainJsonText, readVerificationRecordJson, toPlainJsonText, verificationRecordToJson } from '@milpa/core/kit';
import { malformedRow, type StoreDatabase } from '../database/store-database.js';
import { timeOf } from '../database/time-column.js';

/**
 * Writes a record as the JSON text `record_json` holds.
 *
 * @throws MilpaError `INVALID_ARGUMENT` when its payload or metadata is not plain JSON.
 */
function encodeVerificationRecord(record: VerificationRecord): string {
  return toPlainJsonText(verificationRecordToJson(record), `Verification request '${record.id}'`);
}

/**
 * Reads the record `id` back from its `record_json`.
 *
 * @throws PostgresStoreError `malformed` when the column holds something else.
 */
function decodeVerificationRecord(id: string, json: unknown): VerificationRecord {
  const read = readVerificationRecordJson(id, fromPlainJsonText(json));
  if (!read.ok) throw malformedRow('verification', `verification request '${id}' ${read.error}`, read.cause);
  return read.value;
}

/**
 * The {@link VerificationStore} over the `verification_records` table: pending verifications
 * survive a restart, and a request opened by one process can be decided by another.
 *
 * `open` is one `INSERT … ON CONFLICT` statement that writes only when the id is free (or held by
 * a record past its retention). `decide` locks the record's row (`SELECT … FOR UPDATE`), applies
 * the decision and writes the next record in one transaction, so concurrent grants of a `single`
 * request resolve it exactly once and one principal's repeated grants never satisfy a `dual`
 * request, across processes too. The checks, in order: unknown id (`not_found`), a final verdict
 * (`already_resolved`), a decision after `expiresAt` (`expired`), another subject
 * (`subject_mismatch`), a grant by the requester (`self_approval`), a second grant by one principal
 * (`duplicate_approval`); the same rules as every other store (`applyVerificationDecision`).
 *
 * A finished record (resolved, or past its deadline) is kept for the retention given to
 * {@link PostgresStores.connect} and then forgotten: swept in bounded steps, and unknown to `get`
 * and `decide`, so its id is free again. Payloads and verdict metadata are stored as JSON text and
 * must be plain JSON data.
 *
 * Get one from {@link PostgresStores.connect}.
 *
 * @example
 * const stores = await PostgresStores.connect({ connectionString: 'postgres://127.0.0.1:5432/app' });
 * const verifier = new HumanVerifier({ store: stores.verification });
 */
export class PostgresVerificationStore implements VerificationStore {
  readonly #database: StoreDatabase;
  readonly #retentionMs: number;
  readonly #table: string;

  /** @internal Use {@link PostgresStores.connect}. */
  constructor(database: StoreDatabase, retentionMs: number) {
    this.#database = database;
    this.#retentionMs = retentionMs;
    this.#table = database.table('verification_records');
  }

  /**
   * Stores `record` unless its id is taken by a record still within its retention.
   *
   * @throws MilpaError `INVALID_ARGUMENT` when its payload is not plain JSON data.
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails.
   */
  async open(record: VerificationRecord): Promise<boolean> {
    const json = encodeVerificationRecord(record);
    const { rowCount } = await this.#database.query(
      'verification',
      `INSERT INTO ${this.#table} AS held (id, record_json, created_at, resolved_at, forget_at) VALUES ($1, $2, $3, $4, $5) ` +
        'ON CONFLICT (id) DO UPDATE SET record_json = EXCLUDED.record_json, created_at = EXCLUDED.created_at, ' +
        'resolved_at = EXCLUDED.resolved_at, forget_at = EXCLUDED.forget_at WHERE held.forget_at <= $6',
      [record.id, json, record.createdAt.getTime(), record.resolvedAt?.getTime() ?? null, this.#forgetAt(record), this.#database.now()],
    );
    return rowCount === 1;
  }

  /**
   * The record with that id, or null.
   *
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails or the row is malformed.
   */
  async get(id: string): Promise<VerificationRecord | null> {
    const { rows } = await this.#database.query('verification', `SELECT record_json, forget_at FROM ${this.#table} WHERE id = $1`, [id]);
    return this.#load(rows[0], id);
  }

  /**
   * Checks `decision` against the request `id` and stores the next record, atomically.
   *
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails or the row is malformed;
   *   nothing changed then.
   */
  async decide(id: string, decision: VerificationDecision): Promise<VerificationDecisionOutcome> {
    return this.#database.transaction('verification', async (run) => {
      const { rows } = await run(`SELECT record_json, forget_at FROM ${this.#table} WHERE id = $1 FOR UPDATE`, [id]);
      const outcome = applyVerificationDecision(this.#load(rows[0], id), decision);
      if (outcome.status === 'refused') return outcome;
      const next = outcome.record;
      await run(`UPDATE ${this.#table} SET record_json = $2, resolved_at = $3, forget_at = $4 WHERE id = $1`, [
        id,
        encodeVerificationRecord(next),
        next.resolvedAt?.getTime() ?? null,
        this.#forgetAt(next),
      ]);
      return outcome;
    });
  }

  #load(row: Record<string, unknown> | undefined, id: string): VerificationRecord | null {
    if (row === undefined) return null;
    const forgetAt = timeOf(row['forget_at']);
    if (forgetAt !== undefined && forgetAt <= this.#database.now()) return null;
    return decodeVerificationRecord(id, row['record_json']);
  }

  /** When a finished record is forgotten; null while nothing but a decision can end it. */
  #forgetAt(record: VerificationRecord): number | null {
    const finishedAt = record.resolvedAt ?? record.expiresAt;
    return finishedAt === null ? null : finishedAt.getTime() + this.#retentionMs + 1;
  }
}
