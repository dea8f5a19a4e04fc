/** Where the tests find Redis: `REDIS_URL`, or a local server on the default port. */
export function redisUrlOf(env: Record<string, string | undefined>): string;

/**
 * Where the tests find PostgreSQL: `DATABASE_URL`; else a URL made of the `PG*` variables that are
 * set over the local default; else `postgres://postgres@127.0.0.1:5432/test`.
 */
export function postgresUrlOf(env: Record<string, string | undefined>): string;

/** `url` without its password, for messages. */
export function displayedUrl(url: string): string;
