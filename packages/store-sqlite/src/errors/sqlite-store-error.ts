import { MilpaError } from '@milpa/core';

/** Which of the SQLite stores failed; `database` when opening or migrating the file failed. */
export type SqliteStoreName = 'confirmation' | 'rate_limit' | 'verification' | 'approval' | 'idempotency' | 'history' | 'database';

/**
 * Why a SQLite store could not answer.
 * - `closed`: the stores were closed.
 * - `malformed`: a row does not hold what the store wrote (edited or corrupted by hand, or by
 *   another program).
 * - `schema`: the file's schema is newer than this version of the package understands.
 * - `engine`: SQLite itself failed (locked past the busy timeout, disk full, I/O error, not a database).
 */
export type SqliteStoreFailure = 'closed' | 'malformed' | 'schema' | 'engine';

/**
 * Thrown by every SQLite store when it cannot give a trustworthy answer: its `code` is always
 * `STORE_UNAVAILABLE`, `store` names the store and `failure` says why; the SQLite error, when there
 * is one, is the `cause`. A store never answers wrongly instead: a runtime that calls it fails the
 * call closed.
 *
 * @example
 * try {
 *   await stores.confirmation.consume(token, 'delete_note', binding);
 * } catch (error) {
 *   if (error instanceof SqliteStoreError) console.error(error.store, error.failure, error.message);
 * }
 */
export class SqliteStoreError extends MilpaError {
  /** The store that failed. */
  readonly store: SqliteStoreName;
  /** Why it failed. */
  readonly failure: SqliteStoreFailure;

  /** A failure of `store`, described by `message`. */
  constructor(
    message: string,
    options: { readonly store: SqliteStoreName; readonly failure: SqliteStoreFailure; readonly cause?: unknown },
  ) {
    super(message, { code: 'STORE_UNAVAILABLE', cause: options.cause });
    this.store = options.store;
    this.failure = options.failure;
  }
}
