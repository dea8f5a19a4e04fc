import type Database from 'better-sqlite3';
import { SqliteStoreError } from '../errors/sqlite-store-error.js';

/**
 * The schema, one migration per version, applied in order. A released migration never changes:
 * a new version appends one. Times are epoch milliseconds; JSON columns hold what the store wrote.
 */
const MIGRATIONS: readonly string[] = Object.freeze([
  // 1: the four stores.
  `
  CREATE TABLE confirmation_tokens (
    token          TEXT PRIMARY KEY,
    tool           TEXT NOT NULL,
    args_json      TEXT NOT NULL,
    action_summary TEXT NOT NULL,
    principal      TEXT,
    channel        TEXT NOT NULL,
    expires_at     INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX confirmation_tokens_expiry ON confirmation_tokens (expires_at);

  CREATE TABLE rate_limit_buckets (
    key          TEXT PRIMARY KEY,
    window_start INTEGER NOT NULL,
    window_ms    REAL NOT NULL,
    used         REAL NOT NULL,
    expires_at   INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX rate_limit_buckets_expiry ON rate_limit_buckets (expires_at);

  CREATE TABLE verification_records (
    id          TEXT PRIMARY KEY,
    record_json TEXT NOT NULL,
    forget_at   INTEGER
  ) WITHOUT ROWID;
  CREATE INDEX verification_records_expiry ON verification_records (forget_at) WHERE forget_at IS NOT NULL;

  CREATE TABLE invocation_runs (
    run_id     TEXT PRIMARY KEY,
    complete   INTEGER NOT NULL,
    touched_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX invocation_runs_idle ON invocation_runs (touched_at);

  CREATE TABLE invocation_observations (
    run_id      TEXT NOT NULL,
    seq         INTEGER NOT NULL,
    tool        TEXT NOT NULL,
    outcome     TEXT NOT NULL,
    target_kind TEXT,
    target_id   TEXT,
    PRIMARY KEY (run_id, seq)
  ) WITHOUT ROWID;
  `,
  // 2: calls held for approval, and idempotency keys.
  `
  CREATE TABLE approval_holds (
    approval_id TEXT PRIMARY KEY,
    tool        TEXT NOT NULL,
    args_json   TEXT NOT NULL,
    args_digest TEXT NOT NULL,
    principal   TEXT,
    channel     TEXT NOT NULL,
    run_id      TEXT,
    request_id  TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    redeemed_at INTEGER,
    forget_at   INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX approval_holds_forget ON approval_holds (forget_at);

  CREATE TABLE idempotency_keys (
    key         TEXT PRIMARY KEY,
    record_json TEXT NOT NULL,
    forget_at   INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX idempotency_keys_forget ON idempotency_keys (forget_at);
  `,
  // 3: the places calls of a run hold in its history while they are in flight.
  `
  CREATE TABLE invocation_reservations (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      TEXT NOT NULL,
    tool        TEXT NOT NULL,
    target_kind TEXT,
    target_id   TEXT,
    expires_at  INTEGER NOT NULL
  );
  CREATE INDEX invocation_reservations_run ON invocation_reservations (run_id, id);
  `,
  // 4: how a resumed held call ended (null while unknown).
  `
  ALTER TABLE approval_holds ADD COLUMN settled_outcome TEXT;
  ALTER TABLE approval_holds ADD COLUMN settled_code TEXT;
  ALTER TABLE approval_holds ADD COLUMN settled_at INTEGER;
  `,
]);

/** The schema version this package writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Brings the file's schema to {@link SCHEMA_VERSION} in one `BEGIN IMMEDIATE` transaction, so two
 * processes opening a fresh file at once migrate it once. The version lives in a one-row
 * `schema_version` table.
 *
 * @throws SqliteStoreError `schema` when the file was written by a newer version of the package.
 */
export function migrateSchema(db: Database.Database): void {
  db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const row = db.prepare('SELECT version FROM schema_version').get() as { version: unknown } | undefined;
    const current = row === undefined ? 0 : row.version;
    if (typeof current !== 'number' || !Number.isInteger(current) || current < 0) {
      throw new SqliteStoreError(`The SQLite database's schema_version holds ${String(current)}, which is not a schema version.`, {
        store: 'database',
        failure: 'malformed',
      });
    }
    if (current > SCHEMA_VERSION) {
      throw new SqliteStoreError(
        `The SQLite database has schema version ${String(current)}, newer than the ${String(SCHEMA_VERSION)} this version of ` +
          `@milpa/store-sqlite understands; upgrade the package.`,
        { store: 'database', failure: 'schema' },
      );
    }
    for (let version = current + 1; version <= SCHEMA_VERSION; version += 1) db.exec(MIGRATIONS[version - 1] as string);
    if (row === undefined) db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(SCHEMA_VERSION);
    else if (current !== SCHEMA_VERSION) db.prepare('UPDATE schema_version SET version = ?').run(SCHEMA_VERSION);
  }).immediate();
}
