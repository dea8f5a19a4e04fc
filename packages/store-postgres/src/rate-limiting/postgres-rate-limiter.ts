import { RateLimitResult, type RateLimiter } from '@milpa/core';
import { checkRateLimitArguments } from '@milpa/core/kit';
import { malformedRow, type StoreDatabase } from '../database/store-database.js';
import { timeOf } from '../database/time-column.js';

interface Bucket {
  readonly windowStart: number;
  readonly windowMs: number;
  readonly used: number;
}

function toBucket(row: Record<string, unknown> | undefined): Bucket | undefined {
  if (row === undefined) return undefined;
  const windowStart = timeOf(row['window_start']);
  const windowMs = timeOf(row['window_ms']);
  const used = timeOf(row['used']);
  if (windowStart === undefined || windowMs === undefined || used === undefined || !(windowMs > 0) || !(used >= 0)) {
    throw malformedRow('rate_limit', 'a rate limit bucket with missing or out-of-range columns');
  }
  return { windowStart, windowMs, used };
}

/**
 * The {@link RateLimiter} over the `rate_limit_buckets` table: a fixed-window budget per key that
 * survives restarts and is shared by every process that uses the database. Each key may spend
 * `maxTokens` per window of `windowSeconds`; the window restarts at the first consume after it has
 * elapsed; a denied consume deducts nothing and says how many whole seconds (at least 1) until the
 * window resets.
 *
 * Each `consume` locks its key's row (`SELECT … FOR UPDATE`), decides and writes in one
 * transaction; the first consume of a key inserts its row with `ON CONFLICT DO NOTHING` and, when
 * another process inserted it first, locks that row and decides again. However many callers race,
 * across processes too, the budget is never exceeded. Buckets whose window has passed are swept in
 * bounded steps by {@link PostgresStores}.
 *
 * Get one from {@link PostgresStores.connect}.
 *
 * @example
 * const stores = await PostgresStores.connect({ connectionString: 'postgres://127.0.0.1:5432/app' });
 * const registry = new ToolRegistry({ rateLimiter: stores.rateLimiter });
 */
export class PostgresRateLimiter implements RateLimiter {
  readonly #database: StoreDatabase;
  readonly #table: string;

  /** @internal Use {@link PostgresStores.connect}. */
  constructor(database: StoreDatabase) {
    this.#database = database;
    this.#table = database.table('rate_limit_buckets');
  }

  /**
   * Spends `cost` tokens of `key`'s budget of `maxTokens` per `windowSeconds`, or denies without
   * spending anything. A denial says `Rate limit exceeded for '{key}': max {max} tokens per {window}s.`
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a non-string key, a negative or non-finite cost, a
   *   non-positive window, or a negative or non-integer maximum.
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails or the bucket's row is malformed.
   */
  async consume(key: string, cost = 1, windowSeconds = 60, maxTokens = 100): Promise<RateLimitResult> {
    checkRateLimitArguments(key, cost, windowSeconds, maxTokens);
    const windowMs = windowSeconds * 1000;

    return this.#database.transaction('rate_limit', async (run) => {
      for (;;) {
        const now = this.#database.now();
        const select = `SELECT window_start, window_ms, used FROM ${this.#table} WHERE key = $1 FOR UPDATE`;
        const stored = toBucket((await run(select, [key])).rows[0]);
        const fresh = stored === undefined || now - stored.windowStart >= windowMs;
        const windowStart = fresh ? now : stored.windowStart;
        const used = (fresh ? 0 : stored.used) + cost;
        if (used > maxTokens) {
          const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
          return RateLimitResult.denied(
            `Rate limit exceeded for '${key}': max ${String(maxTokens)} tokens per ${String(windowSeconds)}s.`,
            retryAfterSeconds,
          );
        }
        const values = [key, windowStart, windowMs, used, Math.ceil(windowStart + windowMs)];
        if (stored !== undefined) {
          await run(`UPDATE ${this.#table} SET window_start = $2, window_ms = $3, used = $4, expires_at = $5 WHERE key = $1`, values);
          return RateLimitResult.allowed(maxTokens - used);
        }
        const inserted = await run(
          `INSERT INTO ${this.#table} (key, window_start, window_ms, used, expires_at) VALUES ($1, $2, $3, $4, $5) ` +
            'ON CONFLICT (key) DO NOTHING',
          values,
        );
        if (inserted.rowCount === 1) return RateLimitResult.allowed(maxTokens - used);
        // Another process created the bucket first (and has committed): lock its row and decide again.
      }
    });
  }

  /**
   * Tokens used in `key`'s current window: 0 for an unknown key or an elapsed window (measured
   * with the window the key was last consumed with).
   *
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails or the bucket's row is malformed.
   */
  async getUsage(key: string): Promise<number> {
    const { rows } = await this.#database.query('rate_limit', `SELECT window_start, window_ms, used FROM ${this.#table} WHERE key = $1`, [
      key,
    ]);
    const bucket = toBucket(rows[0]);
    return bucket === undefined || this.#database.now() - bucket.windowStart >= bucket.windowMs ? 0 : bucket.used;
  }

  /**
   * Forgets `key`'s usage.
   *
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails.
   */
  async reset(key: string): Promise<void> {
    await this.#database.query('rate_limit', `DELETE FROM ${this.#table} WHERE key = $1`, [key]);
  }
}
