import { MilpaError } from '@milpa/core';

/** Which of the PostgreSQL stores failed; `database` when connecting to the database or migrating its schema failed. */
export type PostgresStoreName = 'confirmation' | 'rate_limit' | 'verification' | 'approval' | 'idempotency' | 'history' | 'database';

/**
 * Why a PostgreSQL store could not answer.
 * - `closed`: the stores were closed.
 * - `unreachable`: the database could not be reached (connection refused or lost, the server shutting
 *   down, no free connection in the pool within the connect timeout).
 * - `timeout`: a statement ran past the statement timeout (waiting for a row lock included). Its
 *   transaction was rolled back: nothing changed.
 * - `malformed`: a row does not hold what the store wrote (edited by hand, or by another program).
 * - `schema`: the database's schema is newer than this version of the package understands.
 * - `engine`: PostgreSQL answered with another error (permissions, disk full, a read-only server).
 */
export type PostgresStoreFailure = 'closed' | 'unreachable' | 'timeout' | 'malformed' | 'schema' | 'engine';

/**
 * Thrown by every PostgreSQL store when it cannot give a trustworthy answer: its `code` is always
 * `STORE_UNAVAILABLE`, `store` names the store and `failure` says why; the client's error, when
 * there is one, is the `cause`. A store never answers wrongly instead: a runtime that calls it
 * fails the call closed.
 *
 * @example
 * try {
 *   await stores.confirmation.consume(token, 'delete_note', binding);
 * } catch (error) {
 *   if (error instanceof PostgresStoreError) console.error(error.store, error.failure, error.message);
 * }
 */
export class PostgresStoreError extends MilpaError {
  /** The store that failed. */
  readonly store: PostgresStoreName;
  /** Why it failed. */
  readonly failure: PostgresStoreFailure;

  /** A failure of `store`, described by `message`. */
  constructor(
    message: string,
    options: { readonly store: PostgresStoreName; readonly failure: PostgresStoreFailure; readonly cause?: unknown },
  ) {
    super(message, { code: 'STORE_UNAVAILABLE', cause: options.cause });
    this.store = options.store;
    this.failure = options.failure;
  }
}
