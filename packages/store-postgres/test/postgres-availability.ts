// Whether the PostgreSQL the tests use answers, decided once per run by the global setup
// (test/postgres-global-setup.ts) and read by every test file through vitest's `inject`.
import pg from 'pg';

// The URL is read (and shown) as the test command's CI check reads it.
import { displayedUrl } from '../../../scripts/service-urls.mjs';

export { displayedUrl, postgresUrlOf } from '../../../scripts/service-urls.mjs';

/** What the global setup found: the URL it tried and, when nothing answered there, why. */
export interface PostgresAvailability {
  /** The URL tried, as the tests use it. */
  readonly url: string;
  /** Null when `SELECT 1` was answered; otherwise the connection error's message. */
  readonly unreachable: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by test/postgres-global-setup.ts. */
    postgres: PostgresAvailability;
  }
}

/** Connects to `url` and runs `SELECT 1`; never throws. */
export async function probePostgres(url: string): Promise<PostgresAvailability> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { url, unreachable: null };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown } | null)?.code;
    return { url, unreachable: message !== '' ? message : typeof code === 'string' ? code : String(error) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** How to get PostgreSQL, for the messages. */
const START_POSTGRES =
  'start one (`docker run -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust -e POSTGRES_DB=test postgres:16`) or set DATABASE_URL';

/** The one line a run without PostgreSQL prints outside CI. */
export function skippedLine(availability: PostgresAvailability): string {
  return (
    `[skipped] @milpa/store-postgres: the PostgreSQL tests, because nothing answers at ${displayedUrl(availability.url)} ` +
    `(${availability.unreachable}); to run them, ${START_POSTGRES}.`
  );
}

/** The one line a CI run without PostgreSQL fails with. */
export function missingInCiLine(availability: PostgresAvailability): string {
  return (
    `@milpa/store-postgres: no PostgreSQL answers at ${displayedUrl(availability.url)} (${availability.unreachable}), and with CI set ` +
    `the PostgreSQL tests are never skipped: ${START_POSTGRES}.`
  );
}
