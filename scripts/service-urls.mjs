// Where the tests find the services they use, read the same way by the test command's CI check
// (scripts/test.mjs) and by the store packages' test setups (store-redis, store-postgres).

/**
 * Where the tests find Redis: `REDIS_URL`, or a local server on the default port.
 * @param {Record<string, string | undefined>} env
 * @returns {string}
 */
export function redisUrlOf(env) {
  const given = env.REDIS_URL;
  return given === undefined || given === '' ? 'redis://127.0.0.1:6379' : given;
}

const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Where the tests find PostgreSQL: `DATABASE_URL`; else a URL made of the `PG*` variables that are
 * set (`PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD`, `PGDATABASE`) over the local default; else
 * `postgres://postgres@127.0.0.1:5432/test` (the user `postgres`, as a fresh server has).
 * @param {Record<string, string | undefined>} env
 * @returns {string}
 */
export function postgresUrlOf(env) {
  const given = env.DATABASE_URL;
  if (given !== undefined && given !== '') return given;
  const part = (name) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const [host, port, user, password, database] = ['PGHOST', 'PGPORT', 'PGUSER', 'PGPASSWORD', 'PGDATABASE'].map(part);
  if ([host, port, user, password, database].every((value) => value === undefined)) return DEFAULT_POSTGRES_URL;
  const url = new URL(DEFAULT_POSTGRES_URL);
  if (host !== undefined) url.hostname = host;
  if (port !== undefined) url.port = port;
  if (user !== undefined) url.username = encodeURIComponent(user);
  if (password !== undefined) url.password = encodeURIComponent(password);
  if (database !== undefined) url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/**
 * `url` without its password, for messages.
 * @param {string} url
 * @returns {string}
 */
export function displayedUrl(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
