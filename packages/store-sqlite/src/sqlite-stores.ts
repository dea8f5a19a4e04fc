import Database from 'better-sqlite3';
import { MilpaError } from '@milpa/core';
import { SqliteApprovalStore } from './approval/sqlite-approval-store.js';
import { SqliteIdempotencyStore } from './idempotency/sqlite-idempotency-store.js';
import { SqliteConfirmationStore } from './confirmation/sqlite-confirmation-store.js';
import { migrateSchema } from './database/migrate-schema.js';
import { StoreDatabase } from './database/store-database.js';
import { SqliteStoreError } from './errors/sqlite-store-error.js';
import { SqliteInvocationHistoryStore } from './invocation/sqlite-invocation-history-store.js';
import { SqliteRateLimiter } from './rate-limiting/sqlite-rate-limiter.js';
import { SqliteVerificationStore } from './verification/sqlite-verification-store.js';

/** Options of {@link SqliteStores.open}; every field is optional. */
export interface SqliteStoresOptions {
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
   * the timer off (call {@link SqliteStores.sweep} yourself). Default 30,000.
   */
  readonly sweepIntervalMs?: number;
  /** The most rows one sweep deletes from each table, so no sweep holds the file for long. Default 500. */
  readonly sweepLimit?: number;
  /** Milliseconds a call waits for another process's write lock before failing. Default 5,000. */
  readonly busyTimeoutMs?: number;
  /** The clock, in epoch milliseconds (for tests). Default `Date.now`. */
  readonly now?: () => number;
}

function whole(name: string, value: number | undefined, fallback: number, minimum: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw new MilpaError(`SqliteStores option ${name} must be a whole number of at least ${String(minimum)}, got ${String(value)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return value;
}

/** The tables a sweep clears, each with its bounded delete of expired rows. */
const SWEEPS: readonly {
  readonly store: 'confirmation' | 'rate_limit' | 'verification' | 'approval' | 'idempotency';
  readonly sql: string;
}[] = Object.freeze([
  {
    store: 'confirmation',
    sql: 'DELETE FROM confirmation_tokens WHERE token IN (SELECT token FROM confirmation_tokens WHERE expires_at < ? LIMIT ?)',
  },
  {
    store: 'rate_limit',
    sql: 'DELETE FROM rate_limit_buckets WHERE key IN (SELECT key FROM rate_limit_buckets WHERE expires_at <= ? LIMIT ?)',
  },
  {
    store: 'verification',
    sql: 'DELETE FROM verification_records WHERE id IN (SELECT id FROM verification_records WHERE forget_at <= ? LIMIT ?)',
  },
  {
    store: 'approval',
    sql: 'DELETE FROM approval_holds WHERE approval_id IN (SELECT approval_id FROM approval_holds WHERE forget_at <= ? LIMIT ?)',
  },
  {
    store: 'idempotency',
    sql: 'DELETE FROM idempotency_keys WHERE key IN (SELECT key FROM idempotency_keys WHERE forget_at <= ? LIMIT ?)',
  },
]);

/**
 * Milpa's durable stores in one SQLite file (through better-sqlite3, in WAL mode): confirmation
 * tokens, rate-limit budgets, verification requests and invocation histories that survive a
 * restart and are shared, correctly, by every process on the machine that opens the same file.
 *
 * Opening creates the file and its schema if needed, and migrates an older schema (the version is
 * kept in a `schema_version` table). Every check-and-change runs in one `BEGIN IMMEDIATE`
 * transaction. Expired rows are removed in bounded steps (at most `sweepLimit` per table) on an
 * unreferenced timer, so no call waits for a mass expiry and the timer never keeps the process
 * alive. Every failure, a closed database included, is a {@link SqliteStoreError} with the code
 * `STORE_UNAVAILABLE` naming the store; no store answers from a row it cannot read.
 *
 * @example
 * import { SqliteStores } from '@milpa/store-sqlite';
 *
 * const stores = SqliteStores.open('/var/lib/my-agent/milpa.db');
 * const registry = new ToolRegistry({
 *   confirmationStore: stores.confirmation,
 *   rateLimiter: stores.rateLimiter,
 *   historyStore: stores.history,
 * });
 * const verifier = new HumanVerifier({ store: stores.verification });
 * process.on('SIGTERM', () => stores.close());
 */
export class SqliteStores {
  /** Pending confirmation tokens. */
  readonly confirmation: SqliteConfirmationStore;
  /** Fixed-window rate-limit budgets. */
  readonly rateLimiter: SqliteRateLimiter;
  /** Verification requests and their decisions. */
  readonly verification: SqliteVerificationStore;
  /** Calls held for approval until their requester resumes them. */
  readonly approval: SqliteApprovalStore;
  /** Idempotency keys and the results they answer. */
  readonly idempotency: SqliteIdempotencyStore;
  /** Each run's invocation history. */
  readonly history: SqliteInvocationHistoryStore;
  /** The file the stores live in. */
  readonly path: string;

  readonly #database: StoreDatabase;
  readonly #sweepLimit: number;
  readonly #historyIdleMs: number;
  readonly #timer: ReturnType<typeof setInterval> | null;

  private constructor(path: string, database: StoreDatabase, options: SqliteStoresOptions) {
    this.path = path;
    this.#database = database;
    this.#sweepLimit = whole('sweepLimit', options.sweepLimit, 500, 1);
    const idleTtlSeconds = whole('historyIdleTtlSeconds', options.historyIdleTtlSeconds, 86_400, 1);
    this.#historyIdleMs = idleTtlSeconds * 1000;
    this.confirmation = new SqliteConfirmationStore(database, whole('confirmationTtlSeconds', options.confirmationTtlSeconds, 60, 1));
    this.rateLimiter = new SqliteRateLimiter(database);
    this.verification = new SqliteVerificationStore(
      database,
      whole('verificationRetentionMs', options.verificationRetentionMs, 3_600_000, 0),
    );
    this.approval = new SqliteApprovalStore(database, whole('approvalRetentionMs', options.approvalRetentionMs, 3_600_000, 0));
    this.idempotency = new SqliteIdempotencyStore(database);
    this.history = new SqliteInvocationHistoryStore(
      database,
      whole('maxObservationsPerRun', options.maxObservationsPerRun, 1_000, 1),
      idleTtlSeconds,
    );
    const interval = whole('sweepIntervalMs', options.sweepIntervalMs, 30_000, 0);
    this.#timer = interval === 0 ? null : setInterval(() => this.#sweepQuietly(), interval);
    this.#timer?.unref();
  }

  /**
   * Opens (or creates) the SQLite file at `path` and returns its six stores. Two processes may
   * open the same file at once.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for an option out of range.
   * @throws SqliteStoreError `STORE_UNAVAILABLE` (store `database`) when the file cannot be opened,
   *   is not a SQLite database, or has a schema newer than this package understands.
   */
  static open(path: string, options: SqliteStoresOptions = {}): SqliteStores {
    if (typeof path !== 'string' || path === '')
      throw new MilpaError('SqliteStores.open needs the path of a database file.', { code: 'INVALID_ARGUMENT' });
    const busyTimeoutMs = whole('busyTimeoutMs', options.busyTimeoutMs, 5_000, 0);
    // Checked before the file is touched, so a bad option leaves nothing open.
    for (const [name, minimum] of [
      ['confirmationTtlSeconds', 1],
      ['verificationRetentionMs', 0],
      ['approvalRetentionMs', 0],
      ['maxObservationsPerRun', 1],
      ['historyIdleTtlSeconds', 1],
      ['sweepIntervalMs', 0],
      ['sweepLimit', 1],
    ] as const) {
      whole(name, options[name], 0, minimum);
    }
    let db: Database.Database | undefined;
    try {
      db = new Database(path, { timeout: busyTimeoutMs });
      db.pragma('journal_mode = WAL');
      // FULL: a committed redemption or grant survives a power cut, not only a crashed process.
      db.pragma('synchronous = FULL');
      migrateSchema(db);
    } catch (error) {
      db?.close();
      if (error instanceof SqliteStoreError) throw error;
      throw new SqliteStoreError(
        `The SQLite database at ${path} cannot be opened: ${error instanceof Error ? error.message : String(error)}`,
        {
          store: 'database',
          failure: 'engine',
          cause: error,
        },
      );
    }
    return new SqliteStores(path, new StoreDatabase(db, options.now ?? Date.now), options);
  }

  /**
   * Removes up to `sweepLimit` expired rows from each table (expired tokens, elapsed rate-limit
   * windows, verification records, held calls and idempotency keys past their retention, idle runs) and returns how many rows it
   * removed. The timer calls it; call it yourself when the timer is off.
   *
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database is closed or fails.
   */
  sweep(): number {
    const now = this.#database.now();
    let removed = 0;
    for (const { store, sql } of SWEEPS) {
      removed += this.#database.transaction(store, (db) => db.prepare(sql).run(now, this.#sweepLimit).changes);
    }
    removed += this.#database.transaction('history', (db) => {
      const idle = db
        .prepare('SELECT run_id FROM invocation_runs WHERE touched_at <= ? LIMIT ?')
        .all(now - this.#historyIdleMs, this.#sweepLimit) as { run_id: string }[];
      for (const { run_id: runId } of idle) {
        db.prepare('DELETE FROM invocation_observations WHERE run_id = ?').run(runId);
        db.prepare('DELETE FROM invocation_reservations WHERE run_id = ?').run(runId);
        db.prepare('DELETE FROM invocation_runs WHERE run_id = ?').run(runId);
      }
      return idle.length;
    });
    return removed;
  }

  /** Stops the sweep timer and closes the file; every store then throws a `closed` failure. Idempotent. */
  close(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#database.close();
  }

  /** A timer sweep: a failure here is reported by the next call that needs the database instead. */
  #sweepQuietly(): void {
    try {
      if (this.#database.isOpen) this.sweep();
    } catch {
      // Nothing to report to: the calls that follow surface the same failure, typed and named.
    }
  }
}
