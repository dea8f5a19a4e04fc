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
import { malformedRow, type SqliteConnection, type StoreDatabase } from '../database/store-database.js';

interface KeyRow {
  readonly record_json: unknown;
  readonly forget_at: unknown;
}

const SELECT_KEY = 'SELECT record_json, forget_at FROM idempotency_keys WHERE key = ?';

/** Writes a record as the JSON the `record_json` column holds: times as epoch milliseconds. */
function encode(record: IdempotencyRecord): string {
  return toPlainJsonText(idempotencyRecordToJson(record), 'An idempotency record');
}

function decode(row: KeyRow): IdempotencyRecord {
  const record = readIdempotencyRecordJson(fromPlainJsonText(row.record_json));
  if (record === null) throw malformedRow('idempotency', 'an idempotency record with missing or mistyped fields');
  return record;
}

/**
 * The {@link IdempotencyStore} over the `idempotency_keys` table of a SQLite file: idempotency keys
 * and the results they answer survive a restart and are shared by every process on the machine, so
 * a retry that reaches another worker still gets the first call's result instead of running again.
 *
 * `begin`, `complete` and `release` each read the key and write its next state in one
 * `BEGIN IMMEDIATE` transaction, applying the same rules as every other store
 * (`decideIdempotencyBegin` and its siblings): however many calls race with one key, in one process
 * or several, exactly one starts it. Results are stored as JSON and must be plain JSON data. A key
 * is forgotten at its record's `forgetAt` (swept in bounded steps by {@link SqliteStores}).
 *
 * Get one from {@link SqliteStores.open}.
 *
 * @example
 * const stores = SqliteStores.open('/var/lib/my-agent/milpa.db');
 * const registry = new ToolRegistry({ idempotencyStore: stores.idempotency });
 */
export class SqliteIdempotencyStore implements IdempotencyStore {
  readonly #database: StoreDatabase;

  /** @internal Use {@link SqliteStores.open}. */
  constructor(database: StoreDatabase) {
    this.#database = database;
  }

  /**
   * Claims the key or says why not, in one transaction.
   *
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails or the row is malformed.
   */
  begin(claim: IdempotencyClaim): IdempotencyBegin {
    return this.#database.transaction('idempotency', (db) => {
      const { answer, next } = decideIdempotencyBegin(this.#load(db, claim.key), claim);
      if (next !== null) this.#save(db, next);
      return answer;
    });
  }

  /**
   * Keeps `result` as the key's answer when `owner` holds it in flight, in one transaction.
   *
   * @throws MilpaError `INVALID_ARGUMENT` when the result is not plain JSON data.
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails or the row is malformed.
   */
  complete(key: string, owner: string, result: ToolResultJson, at: Date, retentionMs: number): boolean {
    // Checked before the transaction, so a result that is not JSON data is the caller's error, not the database's.
    toPlainJsonText(result, 'An idempotency result');
    return this.#database.transaction('idempotency', (db) => {
      const next = completeIdempotencyRecord(this.#load(db, key), owner, result, at, retentionMs);
      if (next === null) return false;
      this.#save(db, next);
      return true;
    });
  }

  /**
   * Frees the key when `owner` holds it in flight, in one transaction.
   *
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails or the row is malformed.
   */
  release(key: string, owner: string): boolean {
    return this.#database.transaction('idempotency', (db) => {
      if (!mayReleaseIdempotencyRecord(this.#load(db, key), owner, new Date(this.#database.now()))) return false;
      db.prepare('DELETE FROM idempotency_keys WHERE key = ?').run(key);
      return true;
    });
  }

  /**
   * The record of `key`, or null when unknown or forgotten.
   *
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails or the row is malformed.
   */
  get(key: string): IdempotencyRecord | null {
    if (typeof key !== 'string') return null;
    return this.#database.read('idempotency', (db) => {
      const record = this.#load(db, key);
      return record === null || record.forgetAt.getTime() <= this.#database.now() ? null : record;
    });
  }

  #load(db: SqliteConnection, key: string): IdempotencyRecord | null {
    const row = db.prepare(SELECT_KEY).get(key) as KeyRow | undefined;
    return row === undefined ? null : decode(row);
  }

  #save(db: SqliteConnection, record: IdempotencyRecord): void {
    db.prepare('INSERT OR REPLACE INTO idempotency_keys (key, record_json, forget_at) VALUES (?, ?, ?)').run(
      record.key,
      encode(record),
      record.forgetAt.getTime(),
    );
  }
}
