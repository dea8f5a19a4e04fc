import { PostgresStoreError, PostgresStores } from '@milpa/store-postgres';
// One masking rule for every URL the repository prints.
import { displayedUrl } from '../../../../scripts/service-urls.mjs';
import { DemoUsageError } from '../cli/demo-usage-error.js';

/** The environment variable naming the PostgreSQL schema the demo keeps its tables in (default `milpa_demo`). */
export const POSTGRES_SCHEMA_ENV = 'MILPA_DEMO_PG_SCHEMA';

/** The schema the demo keeps its tables in when {@link POSTGRES_SCHEMA_ENV} is not set. */
export const DEFAULT_POSTGRES_SCHEMA = 'milpa_demo';

const HINT = 'pass --store with the URL of a PostgreSQL server that answers, as postgres://user@host:5432/database';

/** The URL `--store` gives, parsed; anything but a `postgres://` or `postgresql://` URL is refused. */
function parseStoreUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DemoUsageError(`--store takes a postgres:// URL, got ${JSON.stringify(value)}`, HINT, 'INVALID_OPTION');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new DemoUsageError(
      `--store takes a postgres:// or postgresql:// URL, got one starting ${url.protocol}//`,
      `${HINT}; to keep the state in a SQLite file, pass --db <path> instead`,
      'INVALID_OPTION',
    );
  }
  if (url.hostname === '') throw new DemoUsageError(`--store ${displayedUrl(url.href)} names no host`, HINT, 'INVALID_OPTION');
  return url;
}

/**
 * Connects the demo's state to the PostgreSQL server `value` names (`postgres://` or
 * `postgresql://`): the six Milpa stores in the schema {@link POSTGRES_SCHEMA_ENV} names, else
 * `milpa_demo`, created with its tables when missing. Nothing is started before the server has
 * answered: a value that is not such a URL, a server that does not answer or refuses the user, and
 * a schema the stores cannot use are each a {@link DemoUsageError} with a one-line message naming
 * the URL (its password masked). Close the stores when done.
 *
 * @throws DemoUsageError `INVALID_OPTION` for a value that is not a PostgreSQL URL, `STATE_UNAVAILABLE`
 *   when the server cannot hold the state.
 * @example
 * const stores = await openPostgresDemoStores('postgres://postgres@127.0.0.1:5432/test', process.env);
 * try { … } finally { await stores.close(); }
 */
export async function openPostgresDemoStores(value: string, env: Readonly<Record<string, string | undefined>>): Promise<PostgresStores> {
  const url = parseStoreUrl(value);
  const given = env[POSTGRES_SCHEMA_ENV];
  const schema = given === undefined || given === '' ? DEFAULT_POSTGRES_SCHEMA : given;
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new DemoUsageError(
      `${POSTGRES_SCHEMA_ENV} must be a plain identifier (letters, digits and underscores, at most 63), got ${JSON.stringify(schema)}`,
      `unset it to use the schema ${DEFAULT_POSTGRES_SCHEMA}`,
      'INVALID_OPTION',
    );
  }
  try {
    // The demo's calls are short: a server that does not answer within seconds is reported, not waited for.
    return await PostgresStores.connect({ connectionString: url.href, schema, maxConnections: 4, connectTimeoutMs: 5_000 });
  } catch (error) {
    if (!(error instanceof PostgresStoreError)) throw error;
    const cause = error.cause instanceof Error && error.cause.message !== '' ? error.cause.message : error.message;
    throw new DemoUsageError(
      `cannot keep the demo's state in PostgreSQL at ${displayedUrl(url.href)}: ${cause.replace(/\s*\n\s*/g, ' ')}`,
      error.failure === 'unreachable' || error.failure === 'timeout' ? `start the server, or ${HINT}` : HINT,
      'STATE_UNAVAILABLE',
    );
  }
}
