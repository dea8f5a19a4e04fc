import { SqliteStoreError, type SqliteStoreName } from '../errors/sqlite-store-error.js';

const STORE_LABELS: Readonly<Record<SqliteStoreName, string>> = Object.freeze({
  confirmation: 'confirmation store',
  rate_limit: 'rate limiter',
  verification: 'verification store',
  approval: 'approval store',
  idempotency: 'idempotency store',
  history: 'invocation history store',
  database: 'database',
});

/** The label a message uses for `store`, e.g. `SQLite rate limiter`. */
export function storeLabel(store: SqliteStoreName): string {
  return `SQLite ${STORE_LABELS[store]}`;
}

/** A `malformed` failure of `store`: a row that does not hold what the store wrote. */
export function malformedRow(store: SqliteStoreName, what: string, cause?: unknown): SqliteStoreError {
  return new SqliteStoreError(`The ${storeLabel(store)} found a malformed row (${what}); it will not guess an answer from it.`, {
    store,
    failure: 'malformed',
    cause,
  });
}

/** The part of a prepared better-sqlite3 statement the stores use. */
export interface SqliteStatement {
  /** The first row, or undefined. */
  get(...parameters: unknown[]): unknown;
  /** Every row. */
  all(...parameters: unknown[]): unknown[];
  /** Runs a change; `changes` counts the rows it touched, `lastInsertRowid` is the rowid of the last row it inserted. */
  run(...parameters: unknown[]): { readonly changes: number; readonly lastInsertRowid: number | bigint };
}

/**
 * The part of a better-sqlite3 connection the stores use: declared here so the published types
 * do not need better-sqlite3's own.
 */
export interface SqliteConnection {
  /** False once closed. */
  readonly open: boolean;
  /** Compiles one statement. */
  prepare(sql: string): SqliteStatement;
  /** Wraps `work` in a transaction; `immediate()` runs it under `BEGIN IMMEDIATE`. */
  transaction<T>(work: () => T): { immediate(): T };
  /** Closes the connection. */
  close(): unknown;
}

/**
 * The one connection the stores share, and the two ways they use it: a read, and a check-and-change
 * in one `BEGIN IMMEDIATE` transaction, which takes the file's write lock before reading, so two
 * processes on one file never both act on the same state. Every failure comes out as a
 * {@link SqliteStoreError} naming the store.
 */
export class StoreDatabase {
  readonly #db: SqliteConnection;
  readonly #now: () => number;

  /** Shares `db` among the stores, with `now` as their clock. */
  constructor(db: SqliteConnection, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  /** The stores' clock, in epoch milliseconds. */
  now(): number {
    return this.#now();
  }

  /** True until {@link StoreDatabase.close}. */
  get isOpen(): boolean {
    return this.#db.open;
  }

  /** Runs `work` with the connection; a closed database or a SQLite failure throws for `store`. */
  read<T>(store: SqliteStoreName, work: (db: SqliteConnection) => T): T {
    this.#requireOpen(store);
    try {
      return work(this.#db);
    } catch (error) {
      throw this.#translate(store, error);
    }
  }

  /** Runs `work` inside one `BEGIN IMMEDIATE` transaction: all of it commits, or none of it. */
  transaction<T>(store: SqliteStoreName, work: (db: SqliteConnection) => T): T {
    return this.read(store, (db) => db.transaction(() => work(db)).immediate());
  }

  /** Closes the connection; later calls throw a `closed` failure. Idempotent. */
  close(): void {
    if (this.#db.open) this.#db.close();
  }

  #requireOpen(store: SqliteStoreName): void {
    if (!this.#db.open) {
      throw new SqliteStoreError(`The ${storeLabel(store)} is closed.`, { store, failure: 'closed' });
    }
  }

  #translate(store: SqliteStoreName, error: unknown): SqliteStoreError {
    if (error instanceof SqliteStoreError) return error;
    const detail = error instanceof Error ? error.message : String(error);
    return new SqliteStoreError(`The ${storeLabel(store)} failed: ${detail}`, { store, failure: 'engine', cause: error });
  }
}
