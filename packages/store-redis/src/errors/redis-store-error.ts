import { MilpaError } from '@milpa/core';

/** Which of the Redis stores failed; `connection` when connecting to Redis failed. */
export type RedisStoreName = 'confirmation' | 'rate_limit' | 'verification' | 'approval' | 'idempotency' | 'history' | 'connection';

/**
 * Why a Redis store could not answer.
 * - `closed`: the stores were closed, or the client given to them was closed.
 * - `unreachable`: Redis could not be reached (connection refused or lost, DNS failure, the client
 *   is reconnecting).
 * - `timeout`: Redis did not answer within the command timeout (or, when connecting, the connect
 *   timeout). A change sent just before may still have been applied: the caller fails closed.
 * - `malformed`: a key holds something the store did not write (edited by hand, or by another
 *   program sharing the prefix).
 * - `contention`: a record changed under the store on every one of its attempts to update it.
 * - `server`: Redis answered with an error (out of memory, a read-only replica, scripting disabled).
 */
export type RedisStoreFailure = 'closed' | 'unreachable' | 'timeout' | 'malformed' | 'contention' | 'server';

/**
 * Thrown by every Redis store when it cannot give a trustworthy answer: its `code` is always
 * `STORE_UNAVAILABLE`, `store` names the store and `failure` says why; the client's error, when
 * there is one, is the `cause`. A store never answers wrongly instead: a runtime that calls it
 * fails the call closed.
 *
 * @example
 * try {
 *   await stores.confirmation.consume(token, 'delete_note', binding);
 * } catch (error) {
 *   if (error instanceof RedisStoreError) console.error(error.store, error.failure, error.message);
 * }
 */
export class RedisStoreError extends MilpaError {
  /** The store that failed. */
  readonly store: RedisStoreName;
  /** Why it failed. */
  readonly failure: RedisStoreFailure;

  /** A failure of `store`, described by `message`. */
  constructor(message: string, options: { readonly store: RedisStoreName; readonly failure: RedisStoreFailure; readonly cause?: unknown }) {
    super(message, { code: 'STORE_UNAVAILABLE', cause: options.cause });
    this.store = options.store;
    this.failure = options.failure;
  }
}
