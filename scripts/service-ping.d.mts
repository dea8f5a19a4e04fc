/** Resolves to null when the Redis at `url` answers PING, otherwise to the reason it did not. Never rejects. */
export function pingRedis(url: string, timeoutMs?: number): Promise<string | null>;

/** Resolves to null when a PostgreSQL server answers at `url`'s host and port, otherwise to the reason it did not. Never rejects. */
export function pingPostgres(url: string, timeoutMs?: number): Promise<string | null>;
