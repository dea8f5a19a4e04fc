// The PostgreSQL the tests use: DATABASE_URL (or the PG* variables), or a local one on the default
// port with the database `test`. Each test file gets a schema of its own, dropped afterwards, so
// files never see each other's rows and a shared database is left as it was found. Whether
// PostgreSQL answers is decided once per run by the global setup (test/postgres-global-setup.ts):
// without it the PostgreSQL suites are skipped, or, with CI set, the run fails before any test.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject } from 'vitest';

const AVAILABILITY = inject('postgres');

/** Where the tests find PostgreSQL (the URL the global setup tried). */
export const POSTGRES_URL = AVAILABILITY.url;

/** The message a test fails with when it needs PostgreSQL and none answers. */
export const POSTGRES_NEEDED = `These tests need PostgreSQL at ${POSTGRES_URL} (or set DATABASE_URL).`;

/** `describe` for a suite that needs PostgreSQL: skipped when the global setup found none. */
export function describeWithPostgres(name: string, body: () => void): void {
  describe.skipIf(AVAILABILITY.unreachable !== null)(name, body);
}

/** A schema name no other test file or run uses: `milpa_test_<label>_<random>`. */
export function uniqueSchema(label: string): string {
  return `milpa_test_${label}_${randomBytes(5).toString('hex')}`;
}

/** The test file's PostgreSQL: a pool and a schema of its own, both set up in `beforeAll`. */
export interface TestDatabase {
  /** A pool of the file's own, open while its tests run. */
  readonly pool: pg.Pool;
  /** The file's schema (created by the first stores that connect to it). */
  readonly schema: string;
}

/**
 * Opens a pool before the file's tests and, after them, drops every schema the file used and ends
 * the pool. Registers nothing when PostgreSQL is not there (the file's suites, declared with
 * {@link describeWithPostgres}, are skipped then). Read the fields only inside tests and hooks.
 */
export function useTestDatabase(label: string): TestDatabase & { readonly schemas: string[] } {
  const schema = uniqueSchema(label);
  const schemas = [schema];
  let pool: pg.Pool | undefined;
  if (AVAILABILITY.unreachable === null) {
    beforeAll(() => {
      pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 4 });
      pool.on('error', () => undefined);
    });
    afterAll(async () => {
      if (pool === undefined) return;
      for (const name of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      await pool.end();
    });
  }
  return {
    schema,
    schemas,
    get pool(): pg.Pool {
      if (pool === undefined) throw new Error(POSTGRES_NEEDED);
      return pool;
    },
  };
}
