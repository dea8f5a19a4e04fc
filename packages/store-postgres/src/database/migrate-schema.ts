import { messageOf } from '@milpa/core/kit';
import { PostgresStoreError } from '../errors/postgres-store-error.js';
import type { PostgresStorePool } from './postgres-store-pool.js';
import { timeOf } from './time-column.js';

/**
 * The schema, one migration per version, applied in order; `{schema}` stands for the quoted schema
 * name. A released migration never changes: a new version appends one. Times are epoch
 * milliseconds (`bigint`); JSON columns are `text`, holding exactly what the store wrote.
 */
const MIGRATIONS: readonly string[] = Object.freeze([
  // 1: the six stores.
  `
  CREATE TABLE {schema}.confirmation_tokens (
    token          text PRIMARY KEY,
    tool           text NOT NULL,
    args_json      text NOT NULL,
    action_summary text NOT NULL,
    principal      text,
    channel        text NOT NULL,
    expires_at     bigint NOT NULL
  );
  CREATE INDEX confirmation_tokens_expiry ON {schema}.confirmation_tokens (expires_at);

  CREATE TABLE {schema}.rate_limit_buckets (
    key          text PRIMARY KEY,
    window_start bigint NOT NULL,
    window_ms    double precision NOT NULL,
    used         double precision NOT NULL,
    expires_at   bigint NOT NULL
  );
  CREATE INDEX rate_limit_buckets_expiry ON {schema}.rate_limit_buckets (expires_at);

  CREATE TABLE {schema}.verification_records (
    id          text PRIMARY KEY,
    record_json text NOT NULL,
    created_at  bigint NOT NULL,
    resolved_at bigint,
    forget_at   bigint
  );
  CREATE INDEX verification_records_forget ON {schema}.verification_records (forget_at) WHERE forget_at IS NOT NULL;
  -- Listing requests a page at a time: pending ones by age, decided ones by decision time.
  CREATE INDEX verification_records_pending ON {schema}.verification_records (created_at, id) WHERE resolved_at IS NULL;
  CREATE INDEX verification_records_decided ON {schema}.verification_records (resolved_at, id) WHERE resolved_at IS NOT NULL;

  CREATE TABLE {schema}.approval_holds (
    approval_id     text PRIMARY KEY,
    tool            text NOT NULL,
    args_json       text NOT NULL,
    args_digest     text NOT NULL,
    principal       text,
    channel         text NOT NULL,
    run_id          text,
    request_id      text NOT NULL,
    created_at      bigint NOT NULL,
    expires_at      bigint NOT NULL,
    redeemed_at     bigint,
    settled_outcome text,
    settled_code    text,
    settled_at      bigint,
    forget_at       bigint NOT NULL
  );
  CREATE INDEX approval_holds_forget ON {schema}.approval_holds (forget_at);
  -- Listing held calls a page at a time: waiting ones by age, used ones by when they were resumed.
  CREATE INDEX approval_holds_waiting ON {schema}.approval_holds (created_at, approval_id) WHERE redeemed_at IS NULL;
  CREATE INDEX approval_holds_redeemed ON {schema}.approval_holds (redeemed_at, approval_id) WHERE redeemed_at IS NOT NULL;

  CREATE TABLE {schema}.idempotency_keys (
    key         text PRIMARY KEY,
    record_json text NOT NULL,
    forget_at   bigint NOT NULL
  );
  CREATE INDEX idempotency_keys_forget ON {schema}.idempotency_keys (forget_at);

  CREATE TABLE {schema}.invocation_runs (
    run_id     text PRIMARY KEY,
    complete   boolean NOT NULL,
    touched_at bigint NOT NULL,
    first_seq  bigint NOT NULL,
    next_seq   bigint NOT NULL
  );
  CREATE INDEX invocation_runs_idle ON {schema}.invocation_runs (touched_at);

  CREATE TABLE {schema}.invocation_observations (
    run_id      text NOT NULL REFERENCES {schema}.invocation_runs (run_id) ON DELETE CASCADE,
    seq         bigint NOT NULL,
    tool        text NOT NULL,
    outcome     text NOT NULL,
    target_kind text,
    target_id   text,
    PRIMARY KEY (run_id, seq)
  );

  CREATE TABLE {schema}.invocation_reservations (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id      text NOT NULL REFERENCES {schema}.invocation_runs (run_id) ON DELETE CASCADE,
    tool        text NOT NULL,
    target_kind text,
    target_id   text,
    expires_at  bigint NOT NULL
  );
  CREATE INDEX invocation_reservations_run ON {schema}.invocation_reservations (run_id, id);
  `,
]);

/** The schema version this package writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Creates the schema if needed and brings it to {@link SCHEMA_VERSION}, in one transaction that
 * first takes a transaction-level advisory lock on the schema's name, so processes opening a fresh
 * database at once migrate it once. The version lives in a one-row `schema_version` table.
 *
 * @throws PostgresStoreError `schema` when the database was written by a newer version of the
 *   package, `malformed` when `schema_version` holds something else, and a connection or engine
 *   failure of the `database` store when PostgreSQL does.
 */
export async function migrateSchema(pool: PostgresStorePool, schema: string): Promise<void> {
  const quoted = `"${schema}"`;
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`milpa-store-postgres:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${quoted}.schema_version (version integer NOT NULL)`);
    const { rows } = await client.query(`SELECT version FROM ${quoted}.schema_version`);
    const stored = rows[0]?.['version'];
    const current = rows.length === 0 ? 0 : timeOf(stored);
    if (current === undefined || !Number.isInteger(current) || current < 0 || rows.length > 1) {
      throw new PostgresStoreError(
        `The schema_version table of schema ${quoted} holds ${rows.length > 1 ? 'several rows' : String(stored)}, ` +
          'which is not a schema version.',
        { store: 'database', failure: 'malformed' },
      );
    }
    if (current > SCHEMA_VERSION) {
      throw new PostgresStoreError(
        `The PostgreSQL schema ${quoted} has schema version ${String(current)}, newer than the ${String(SCHEMA_VERSION)} this ` +
          'version of @milpa/store-postgres understands; upgrade the package.',
        { store: 'database', failure: 'schema' },
      );
    }
    for (let version = current + 1; version <= SCHEMA_VERSION; version += 1) {
      await client.query((MIGRATIONS[version - 1] as string).replaceAll('{schema}', quoted));
    }
    if (rows.length === 0) await client.query(`INSERT INTO ${quoted}.schema_version (version) VALUES ($1)`, [SCHEMA_VERSION]);
    else if (current !== SCHEMA_VERSION) await client.query(`UPDATE ${quoted}.schema_version SET version = $1`, [SCHEMA_VERSION]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: unknown) => {
      broken = new Error(messageOf(rollbackError));
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
