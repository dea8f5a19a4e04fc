import { messageOf } from '@milpa/core/kit';
import { PostgresStoreError, type PostgresStoreFailure, type PostgresStoreName } from '../errors/postgres-store-error.js';
import type { PostgresQueryResult, PostgresStorePool, PostgresStorePoolClient } from './postgres-store-pool.js';

const STORE_LABELS: Readonly<Record<PostgresStoreName, string>> = Object.freeze({
  confirmation: 'confirmation store',
  rate_limit: 'rate limiter',
  verification: 'verification store',
  approval: 'approval store',
  idempotency: 'idempotency store',
  history: 'invocation history store',
  database: 'database',
});

/** The label a message uses for `store`, e.g. `PostgreSQL rate limiter`. */
export function storeLabel(store: PostgresStoreName): string {
  return `PostgreSQL ${STORE_LABELS[store]}`;
}

/** A `malformed` failure of `store`: a row that does not hold what the store wrote. */
export function malformedRow(store: PostgresStoreName, what: string, cause?: unknown): PostgresStoreError {
  return new PostgresStoreError(`The ${storeLabel(store)} found a malformed row (${what}); it will not guess an answer from it.`, {
    store,
    failure: 'malformed',
    cause,
  });
}

/** Runs one statement: inside a transaction, on its connection. */
export type RunStatement = (text: string, values?: readonly unknown[]) => Promise<PostgresQueryResult>;

/** SQLSTATE codes of a statement cancelled by `statement_timeout` or refused by `lock_timeout`. */
const TIMEOUT_STATES = new Set(['57014', '55P03']);
/** SQLSTATE codes of a server going away: connection exceptions (class 08) and shutdowns. */
const GONE_STATES = new Set(['57P01', '57P02', '57P03']);
/** Node's socket errors: nothing listens, or the connection broke. */
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Why `error` (thrown by the `pg` client) happened, as a failure kind. */
function failureOf(error: unknown): PostgresStoreFailure {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string') {
    if (TIMEOUT_STATES.has(code)) return 'timeout';
    if (code.startsWith('08') || GONE_STATES.has(code) || SOCKET_ERRORS.has(code)) return 'unreachable';
    if (/^[0-9A-Z]{5}$/.test(code)) return 'engine';
  }
  // The client's own errors carry no SQLSTATE: a lost or never-made connection, or an exhausted pool.
  const message = messageOf(error);
  if (/timeout|timed out/i.test(message)) return /connect/i.test(message) ? 'unreachable' : 'timeout';
  if (/connection|terminat|ended|closed|socket/i.test(message)) return 'unreachable';
  return 'engine';
}

/**
 * The pool the stores share, and the two ways they use it: one statement on its own (PostgreSQL
 * makes it atomic), and a transaction on one connection, in which the stores take row locks
 * (`SELECT … FOR UPDATE`) before they decide. Every failure comes out as a
 * {@link PostgresStoreError} naming the store, and a failed transaction is rolled back.
 */
export class StoreDatabase {
  readonly #pool: PostgresStorePool;
  readonly #schema: string;
  readonly #now: () => number;
  #closed = false;

  /** Shares `pool` among the stores, whose tables live in `schema` (a checked identifier), with `now` as their clock. */
  constructor(pool: PostgresStorePool, schema: string, now: () => number) {
    this.#pool = pool;
    this.#schema = schema;
    this.#now = now;
  }

  /** The stores' clock, in epoch milliseconds. */
  now(): number {
    return this.#now();
  }

  /** The qualified, quoted name of a table of the stores: `"milpa"."approval_holds"`. */
  table(name: string): string {
    return `"${this.#schema}"."${name}"`;
  }

  /** True until {@link StoreDatabase.close}. */
  get isOpen(): boolean {
    return !this.#closed;
  }

  /** Stops the stores: every later call throws a `closed` failure. Does not end the pool. */
  close(): void {
    this.#closed = true;
  }

  /** Runs one statement for `store` on any connection of the pool. */
  async query(store: PostgresStoreName, text: string, values: readonly unknown[] = []): Promise<PostgresQueryResult> {
    this.#requireOpen(store);
    try {
      return await this.#pool.query(text, [...values]);
    } catch (error) {
      throw this.#translate(store, error);
    }
  }

  /**
   * Runs `work` in one transaction on one connection: all of it commits, or none of it. `work`
   * takes the row locks it needs; they hold until the commit, so a concurrent check-and-change of
   * the same row, in any process, waits and then reads what this one wrote.
   */
  async transaction<T>(store: PostgresStoreName, work: (run: RunStatement) => Promise<T>): Promise<T> {
    this.#requireOpen(store);
    let client: PostgresStorePoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw this.#translate(store, error);
    }
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const answer = await work((text, values = []) => client.query(text, [...values]));
      await client.query('COMMIT');
      return answer;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        // A connection that cannot roll back is not given back to the pool for the next caller.
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      }
      throw this.#translate(store, error);
    } finally {
      client.release(broken);
    }
  }

  #requireOpen(store: PostgresStoreName): void {
    if (this.#closed) throw new PostgresStoreError(`The ${storeLabel(store)} is closed.`, { store, failure: 'closed' });
  }

  #translate(store: PostgresStoreName, error: unknown): PostgresStoreError {
    if (error instanceof PostgresStoreError) return error;
    if (this.#closed) return new PostgresStoreError(`The ${storeLabel(store)} is closed.`, { store, failure: 'closed', cause: error });
    return translateFailure(store, error);
  }
}

/** An error the `pg` client threw, as a {@link PostgresStoreError} of `store` saying why. */
export function translateFailure(store: PostgresStoreName, error: unknown): PostgresStoreError {
  const failure = failureOf(error);
  const detail = messageOf(error);
  const message =
    failure === 'unreachable'
      ? `The ${storeLabel(store)} cannot reach PostgreSQL: ${detail}`
      : failure === 'timeout'
        ? `The ${storeLabel(store)} gave up waiting for PostgreSQL: ${detail}`
        : `The ${storeLabel(store)} failed: ${detail}`;
  return new PostgresStoreError(message, { store, failure, cause: error });
}
