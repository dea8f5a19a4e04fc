import { MilpaError } from '@milpa/core';
import { messageOf } from '@milpa/core/kit';
import pg from 'pg';
import { PostgresApprovalStore } from './approval/postgres-approval-store.js';
import { PostgresConfirmationStore } from './confirmation/postgres-confirmation-store.js';
import { migrateSchema } from './database/migrate-schema.js';
import type { PostgresStorePool } from './database/postgres-store-pool.js';
import { StoreDatabase, translateFailure } from './database/store-database.js';
import { PostgresStoreError } from './errors/postgres-store-error.js';
import { PostgresIdempotencyStore } from './idempotency/postgres-idempotency-store.js';
import { PostgresInvocationHistoryStore } from './invocation/postgres-invocation-history-store.js';
import { PostgresRateLimiter } from './rate-limiting/postgres-rate-limiter.js';
import { PostgresVerificationStore } from './verification/postgres-verification-store.js';

/** Options of {@link PostgresStores.connect}; every field is optional. */
export interface PostgresStoresOptions {
  /**
   * Where PostgreSQL is, as `postgres://user:password@host:port/database`, for a pool the stores
   * create (and end). Default: what the `pg` client reads from the `PG*` environment variables
   * (`PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, …), else a local server on port 5432. Not together
   * with `pool`.
   */
  readonly connectionString?: string;
  /**
   * A pool you created yourself (a `Pool` of the `pg` package), shared with the rest of your
   * program; {@link PostgresStores.close} leaves it open. Not together with `connectionString`.
   */
  readonly pool?: PostgresStorePool;
  /** The PostgreSQL schema the stores' tables live in, created when missing. Default `milpa`. */
  readonly schema?: string;
  /** The most connections a pool the stores create opens at once. Default 10. */
  readonly maxConnections?: number;
  /** Milliseconds a pool the stores create may take to open a connection before the call fails. Default 5,000. */
  readonly connectTimeoutMs?: number;
  /**
   * Milliseconds one statement of a pool the stores create may run, waiting for a row lock
   * included, before PostgreSQL cancels it and the store fails with `timeout`. Default 5,000.
   */
  readonly statementTimeoutMs?: number;
  /** Seconds a confirmation token stays redeemable (whole seconds ≥ 1). Default 60. */
  readonly confirmationTtlSeconds?: number;
  /** Milliseconds a finished verification record is kept before it is forgotten. Default one hour. */
  readonly verificationRetentionMs?: number;
  /**
   * Milliseconds a call held for approval is kept after it expires or is used, so a late resume is
   * told "expired" or "used" rather than "unknown". Default one hour.
   */
  readonly approvalRetentionMs?: number;
  /** Observations kept per run; past it the oldest are dropped and the run becomes incomplete. Default 1,000. */
  readonly maxObservationsPerRun?: number;
  /** Seconds after which a run nobody touched is forgotten. Default 86,400 (a day). */
  readonly historyIdleTtlSeconds?: number;
  /**
   * Milliseconds between two expiry sweeps, on a timer that never keeps the process alive; 0 turns
   * the timer off (call {@link PostgresStores.sweep} yourself). Default 30,000.
   */
  readonly sweepIntervalMs?: number;
  /** The most rows one sweep deletes from each table, so no sweep runs long. Default 500. */
  readonly sweepLimit?: number;
  /** The clock, in epoch milliseconds (for tests). Default `Date.now`. */
  readonly now?: () => number;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

function whole(name: string, value: number | undefined, fallback: number, minimum: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw new MilpaError(`PostgresStores option ${name} must be a whole number of at least ${String(minimum)}, got ${String(value)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return value;
}

function invalid(message: string): MilpaError {
  return new MilpaError(message, { code: 'INVALID_ARGUMENT' });
}

/** Every option checked, with its default; throws before anything connects. */
function readSettings(options: PostgresStoresOptions) {
  if (typeof options !== 'object' || options === null) throw invalid('PostgresStores.connect takes an options object.');
  if (options.connectionString !== undefined && options.pool !== undefined)
    throw invalid('PostgresStores.connect takes a connectionString or a pool, not both.');
  if (options.connectionString !== undefined && (typeof options.connectionString !== 'string' || options.connectionString === ''))
    throw invalid('PostgresStores option connectionString must be a non-empty string.');
  if (options.pool !== undefined && (typeof options.pool?.connect !== 'function' || typeof options.pool.query !== 'function'))
    throw invalid('PostgresStores option pool must be a connection pool (a Pool of the pg package).');
  const schema = options.schema ?? 'milpa';
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema))
    throw invalid(
      `PostgresStores option schema must be a plain identifier (letters, digits and underscores, at most 63), got ${String(schema)}.`,
    );
  if (options.now !== undefined && typeof options.now !== 'function') throw invalid('PostgresStores option now must be a function.');
  return {
    schema,
    maxConnections: whole('maxConnections', options.maxConnections, 10, 1),
    connectTimeoutMs: whole('connectTimeoutMs', options.connectTimeoutMs, 5_000, 1),
    statementTimeoutMs: whole('statementTimeoutMs', options.statementTimeoutMs, 5_000, 1),
    confirmationTtlSeconds: whole('confirmationTtlSeconds', options.confirmationTtlSeconds, 60, 1),
    verificationRetentionMs: whole('verificationRetentionMs', options.verificationRetentionMs, 3_600_000, 0),
    approvalRetentionMs: whole('approvalRetentionMs', options.approvalRetentionMs, 3_600_000, 0),
    maxObservationsPerRun: whole('maxObservationsPerRun', options.maxObservationsPerRun, 1_000, 1),
    historyIdleTtlSeconds: whole('historyIdleTtlSeconds', options.historyIdleTtlSeconds, 86_400, 1),
    sweepIntervalMs: whole('sweepIntervalMs', options.sweepIntervalMs, 30_000, 0),
    sweepLimit: whole('sweepLimit', options.sweepLimit, 500, 1),
  } as const;
}

type Settings = ReturnType<typeof readSettings>;

/** The tables a sweep clears, each with the column past which a row is forgotten. */
const SWEEPS: readonly {
  readonly store: 'confirmation' | 'rate_limit' | 'verification' | 'approval' | 'idempotency' | 'history';
  readonly table: string;
  readonly expiry: string;
}[] = Object.freeze([
  { store: 'confirmation', table: 'confirmation_tokens', expiry: 'expires_at < $1' },
  { store: 'rate_limit', table: 'rate_limit_buckets', expiry: 'expires_at <= $1' },
  { store: 'verification', table: 'verification_records', expiry: 'forget_at <= $1' },
  { store: 'approval', table: 'approval_holds', expiry: 'forget_at <= $1' },
  { store: 'idempotency', table: 'idempotency_keys', expiry: 'forget_at <= $1' },
  // A run's observations and places go with it (ON DELETE CASCADE).
  { store: 'history', table: 'invocation_runs', expiry: 'touched_at <= $1' },
]);

/**
 * Milpa's durable stores in PostgreSQL (through the `pg` client): confirmation tokens, rate-limit
 * budgets, verification requests, calls held for approval, idempotency keys and invocation
 * histories that survive a restart and are shared, correctly, by every process on every machine
 * that uses the same database and schema.
 *
 * Connecting creates the schema and its tables if needed and migrates an older schema, under an
 * advisory lock so that processes starting together migrate once (the version is kept in a
 * `schema_version` table; a schema newer than the package is refused). Every check-and-change is
 * one statement, or one transaction that locks the rows it decides on (`SELECT … FOR UPDATE`)
 * before reading them — never a read followed by a separate write. Expired rows are ignored by
 * every read and removed in bounded steps (at most `sweepLimit` per table, skipping rows a call
 * holds locked) on an unreferenced timer, so no call waits for a mass expiry and the timer never
 * keeps the process alive. Every failure, a closed store included, is a {@link PostgresStoreError}
 * with the code `STORE_UNAVAILABLE` naming the store; no store answers from a row it cannot read.
 *
 * @example
 * import { PostgresStores } from '@milpa/store-postgres';
 *
 * const stores = await PostgresStores.connect({ connectionString: 'postgres://127.0.0.1:5432/app' });
 * const registry = new ToolRegistry({
 *   confirmationStore: stores.confirmation,
 *   rateLimiter: stores.rateLimiter,
 *   historyStore: stores.history,
 *   idempotencyStore: stores.idempotency,
 * });
 * const verifier = new HumanVerifier({ store: stores.verification });
 * process.on('SIGTERM', () => void stores.close());
 */
export class PostgresStores {
  /** Pending confirmation tokens. */
  readonly confirmation: PostgresConfirmationStore;
  /** Fixed-window rate-limit budgets. */
  readonly rateLimiter: PostgresRateLimiter;
  /** Verification requests and their decisions. */
  readonly verification: PostgresVerificationStore;
  /** Calls held for approval until their requester resumes them. */
  readonly approval: PostgresApprovalStore;
  /** Idempotency keys and the results they answer. */
  readonly idempotency: PostgresIdempotencyStore;
  /** Each run's invocation history. */
  readonly history: PostgresInvocationHistoryStore;
  /** The PostgreSQL schema the stores' tables live in. */
  readonly schema: string;

  readonly #database: StoreDatabase;
  readonly #owned: pg.Pool | null;
  readonly #sweepLimit: number;
  readonly #historyIdleMs: number;
  readonly #timer: ReturnType<typeof setInterval> | null;
  #sweeping: Promise<number> | null = null;
  #closing: Promise<void> | null = null;

  private constructor(database: StoreDatabase, owned: pg.Pool | null, settings: Settings) {
    this.#database = database;
    this.#owned = owned;
    this.schema = settings.schema;
    this.#sweepLimit = settings.sweepLimit;
    this.#historyIdleMs = settings.historyIdleTtlSeconds * 1000;
    this.confirmation = new PostgresConfirmationStore(database, settings.confirmationTtlSeconds);
    this.rateLimiter = new PostgresRateLimiter(database);
    this.verification = new PostgresVerificationStore(database, settings.verificationRetentionMs);
    this.approval = new PostgresApprovalStore(database, settings.approvalRetentionMs);
    this.idempotency = new PostgresIdempotencyStore(database);
    this.history = new PostgresInvocationHistoryStore(database, settings.maxObservationsPerRun, settings.historyIdleTtlSeconds);
    const interval = settings.sweepIntervalMs;
    this.#timer = interval === 0 ? null : setInterval(() => void this.#sweepQuietly(), interval);
    this.#timer?.unref();
  }

  /**
   * Connects to PostgreSQL (or takes the `pool` given), creates or migrates the stores' schema, and
   * resolves to the six stores. Any number of processes may connect to the same database at once.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for an option out of range, a schema name that is not a
   *   plain identifier, or both `connectionString` and `pool`.
   * @throws PostgresStoreError `STORE_UNAVAILABLE` (store `database`) when PostgreSQL cannot be
   *   reached, refuses the connection, or holds a schema newer than this package understands.
   */
  static async connect(options: PostgresStoresOptions = {}): Promise<PostgresStores> {
    const settings = readSettings(options);
    let owned: pg.Pool | null = null;
    let pool: PostgresStorePool;
    if (options.pool === undefined) {
      owned = new pg.Pool({
        ...(options.connectionString === undefined ? {} : { connectionString: options.connectionString }),
        max: settings.maxConnections,
        connectionTimeoutMillis: settings.connectTimeoutMs,
        statement_timeout: settings.statementTimeoutMs,
      });
      // Without a listener an idle connection's error would crash the process; the next call reports it.
      owned.on('error', () => undefined);
      pool = owned as unknown as PostgresStorePool;
    } else {
      pool = options.pool;
    }
    try {
      await migrateSchema(pool, settings.schema);
    } catch (error) {
      await owned?.end().catch(() => undefined);
      if (error instanceof PostgresStoreError) throw error;
      const { failure } = translateFailure('database', error);
      throw new PostgresStoreError(`PostgreSQL could not open the stores' schema "${settings.schema}": ${messageOf(error)}`, {
        store: 'database',
        failure,
        cause: error,
      });
    }
    return new PostgresStores(new StoreDatabase(pool, settings.schema, options.now ?? Date.now), owned, settings);
  }

  /**
   * Removes up to `sweepLimit` expired rows from each table (expired tokens, elapsed rate-limit
   * windows, verification records, held calls and idempotency keys past their retention, idle runs
   * with their observations) and resolves to how many rows it removed. Rows a call holds locked are
   * skipped (`FOR UPDATE SKIP LOCKED`), so a sweep never waits for a call, nor a call for long on a
   * sweep. The timer calls it; call it yourself when the timer is off.
   *
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the stores are closed or the database fails.
   */
  async sweep(): Promise<number> {
    const now = this.#database.now();
    let removed = 0;
    for (const { store, table, expiry } of SWEEPS) {
      const qualified = this.#database.table(table);
      const { rowCount } = await this.#database.query(
        store,
        `DELETE FROM ${qualified} WHERE ctid = ANY (ARRAY (SELECT ctid FROM ${qualified} WHERE ${expiry} LIMIT $2 FOR UPDATE SKIP LOCKED))`,
        [store === 'history' ? now - this.#historyIdleMs : now, this.#sweepLimit],
      );
      removed += rowCount ?? 0;
    }
    return removed;
  }

  /**
   * Stops the sweep timer and the stores (every later call throws a `closed` failure) and ends the
   * pool they created, once its connections are back; a pool given to {@link PostgresStores.connect}
   * stays open. Idempotent.
   */
  close(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#database.close();
    this.#closing ??= this.#endOwnedPool();
    return this.#closing;
  }

  async #endOwnedPool(): Promise<void> {
    await this.#sweeping?.catch(() => undefined);
    await this.#owned?.end();
  }

  /** A timer sweep: one at a time, and a failure is reported by the next call that needs the database instead. */
  async #sweepQuietly(): Promise<void> {
    if (this.#sweeping !== null || !this.#database.isOpen) return;
    this.#sweeping = this.sweep();
    try {
      await this.#sweeping;
    } catch {
      // Nothing to report to: the calls that follow surface the same failure, typed and named.
    } finally {
      this.#sweeping = null;
    }
  }
}
