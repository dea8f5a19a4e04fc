import {
  completeIdempotencyRecord,
  decideIdempotencyBegin,
  mayReleaseIdempotencyRecord,
  type IdempotencyBegin,
  type IdempotencyClaim,
  type IdempotencyRecord,
  type IdempotencyStore,
  type ToolResultJson,
} from '@milpa/core';
import { fromPlainJsonText, idempotencyRecordToJson, readIdempotencyRecordJson, toPlainJsonText } from '@milpa/core/kit';
import { malformedRow, type RunStatement, type StoreDatabase } from '../database/store-database.js';

/** Writes a record as the JSON text `record_json` holds. */
function encode(record: IdempotencyRecord): string {
  return toPlainJsonText(idempotencyRecordToJson(record), 'An idempotency record');
}

function decode(row: Record<string, unknown>): IdempotencyRecord {
  const record = readIdempotencyRecordJson(fromPlainJsonText(row['record_json']));
  if (record === null) throw malformedRow('idempotency', 'an idempotency record with missing or mistyped fields');
  return record;
}

/**
 * The {@link IdempotencyStore} over the `idempotency_keys` table: idempotency keys and the results
 * they answer survive a restart and are shared by every process that uses the database, so a retry
 * that reaches another worker still gets the first call's result instead of running again.
 *
 * `begin`, `complete` and `release` each lock the key's row (`SELECT … FOR UPDATE`) and write its
 * next state in one transaction, applying the same rules as every other store
 * (`decideIdempotencyBegin` and its siblings); a first `begin` inserts the row with
 * `ON CONFLICT DO NOTHING` and, when another process inserted it first, locks that row and decides
 * again. However many calls race with one key, in one process or several, exactly one starts it.
 * Results are stored as JSON text and must be plain JSON data. A key is forgotten at its record's
 * `forgetAt` (swept in bounded steps by {@link PostgresStores}).
 *
 * Get one from {@link PostgresStores.connect}.
 *
 * @example
 * const stores = await PostgresStores.connect({ connectionString: 'postgres://127.0.0.1:5432/app' });
 * const registry = new ToolRegistry({ idempotencyStore: stores.idempotency });
 */
export class PostgresIdempotencyStore implements IdempotencyStore {
  readonly #database: StoreDatabase;
  readonly #table: string;

  /** @internal Use {@link PostgresStores.connect}. */
  constructor(database: StoreDatabase) {
    this.#database = database;
    this.#table = database.table('idempotency_keys');
  }

  /**
   * Claims the key or says why not, in one transaction.
   *
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails or the row is malformed.
   */
  async begin(claim: IdempotencyClaim): Promise<IdempotencyBegin> {
    return this.#database.transaction('idempotency', async (run) => {
      for (;;) {
        const current = await this.#lock(run, claim.key);
        const { answer, next } = decideIdempotencyBegin(current, claim);
        if (next === null) return answer;
        if (current !== null) {
          await this.#update(run, next);
          return answer;
        }
        const inserted = await run(
          `INSERT INTO ${this.#table} (key, record_json, forget_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING`,
          [next.key, encode(next), next.forgetAt.getTime()],
        );
        if (inserted.rowCount === 1) return answer;
        // Another process claimed the key first (and has committed): lock its row and decide again.
      }
    });
  }

  /**
   * Keeps `result` as the key's answer when `owner` holds it in flight, in one transaction.
   *
   * @throws MilpaError `INVALID_ARGUMENT` when the result is not plain JSON data.
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails or the row is malformed.
   */
  async complete(key: string, owner: string, result: ToolResultJson, at: Date, retentionMs: number): Promise<boolean> {
    // Checked before the transaction, so a result that is not JSON data is the caller's error, not the database's.
    toPlainJsonText(result, 'An idempotency result');
    return this.#database.transaction('idempotency', async (run) => {
      const next = completeIdempotencyRecord(await this.#lock(run, key), owner, result, at, retentionMs);
      if (next === null) return false;
      await this.#update(run, next);
      return true;
    });
  }

  /**
   * Frees the key when `owner` holds it in flight, in one transaction.
   *
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails or the row is malformed.
   */
  async release(key: string, owner: string): Promise<boolean> {
    return this.#database.transaction('idempotency', async (run) => {
      if (!mayReleaseIdempotencyRecord(await this.#lock(run, key), owner, new Date(this.#database.now()))) return false;
      await run(`DELETE FROM ${this.#table} WHERE key = $1`, [key]);
      return true;
    });
  }

  /**
   * The record of `key`, or null when unknown or forgotten.
   *
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails or the row is malformed.
   */
  async get(key: string): Promise<IdempotencyRecord | null> {
    if (typeof key !== 'string') return null;
    const { rows } = await this.#database.query('idempotency', `SELECT record_json FROM ${this.#table} WHERE key = $1`, [key]);
    const record = rows[0] === undefined ? null : decode(rows[0]);
    return record === null || record.forgetAt.getTime() <= this.#database.now() ? null : record;
  }

  /** The key's record, its row locked until the transaction ends; null when there is none. */
  async #lock(run: RunStatement, key: string): Promise<IdempotencyRecord | null> {
    const row = (await run(`SELECT record_json FROM ${this.#table} WHERE key = $1 FOR UPDATE`, [key])).rows[0];
    return row === undefined ? null : decode(row);
  }

  async #update(run: RunStatement, record: IdempotencyRecord): Promise<void> {
    await run(`UPDATE ${this.#table} SET record_json = $2, forget_at = $3 WHERE key = $1`, [
      record.key,
      encode(record),
      record.forgetAt.getTime(),
    ]);
  }
}
