import { RateLimitResult, type RateLimiter } from '@milpa/core';
import { checkRateLimitArguments } from '@milpa/core/kit';
import { malformedRow, type StoreDatabase } from '../database/store-database.js';

interface BucketRow {
  readonly window_start: unknown;
  readonly window_ms: unknown;
  readonly used: unknown;
}

interface Bucket {
  readonly windowStart: number;
  readonly windowMs: number;
  readonly used: number;
}

function toBucket(row: BucketRow | undefined): Bucket | undefined {
  if (row === undefined) return undefined;
  const { window_start: windowStart, window_ms: windowMs, used } = row;
  if (typeof windowStart !== 'number' || typeof windowMs !== 'number' || typeof used !== 'number' || !(windowMs > 0) || !(used >= 0)) {
    throw malformedRow('rate_limit', 'a rate limit bucket with missing or out-of-range columns');
  }
  return { windowStart, windowMs, used };
}

const SELECT_BUCKET = 'SELECT window_start, window_ms, used FROM rate_limit_buckets WHERE key = ?';

/**
 * The {@link RateLimiter} over the `rate_limit_buckets` table of a SQLite file: a fixed-window
 * budget per key that survives restarts and is shared by every process that opens the file. Each
 * key may spend `maxTokens` per window of `windowSeconds`; the window restarts at the first
 * consume after it has elapsed; a denied consume deducts nothing and says how many whole seconds
 * (at least 1) until the window resets.
 *
 * Each `consume` reads and updates its key's bucket in one `BEGIN IMMEDIATE` transaction, so
 * however many callers race, across processes too, the budget is never exceeded. Buckets whose
 * window has passed are swept in bounded steps by {@link SqliteStores}.
 *
 * Get one from {@link SqliteStores.open}.
 *
 * @example
 * const stores = SqliteStores.open('/var/lib/my-agent/milpa.db');
 * const registry = new ToolRegistry({ rateLimiter: stores.rateLimiter });
 */
export class SqliteRateLimiter implements RateLimiter {
  readonly #database: StoreDatabase;

  /** @internal Use {@link SqliteStores.open}. */
  constructor(database: StoreDatabase) {
    this.#database = database;
  }

  /**
   * Spends `cost` tokens of `key`'s budget of `maxTokens` per `windowSeconds`, or denies without
   * spending anything. A denial says `Rate limit exceeded for '{key}': max {max} tokens per {window}s.`
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a non-string key, a negative or non-finite cost, a
   *   non-positive window, or a negative or non-integer maximum.
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails or the bucket's row is malformed.
   */
  consume(key: string, cost = 1, windowSeconds = 60, maxTokens = 100): RateLimitResult {
    checkRateLimitArguments(key, cost, windowSeconds, maxTokens);
    const windowMs = windowSeconds * 1000;

    return this.#database.transaction('rate_limit', (db) => {
      const now = this.#database.now();
      const stored = toBucket(db.prepare(SELECT_BUCKET).get(key) as BucketRow | undefined);
      const fresh = stored === undefined || now - stored.windowStart >= windowMs;
      const windowStart = fresh ? now : stored.windowStart;
      const used = fresh ? 0 : stored.used;
      if (used + cost > maxTokens) {
        const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
        return RateLimitResult.denied(
          `Rate limit exceeded for '${key}': max ${String(maxTokens)} tokens per ${String(windowSeconds)}s.`,
          retryAfterSeconds,
        );
      }
      db.prepare(
        `INSERT INTO rate_limit_buckets (key, window_start, window_ms, used, expires_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET window_start = excluded.window_start, window_ms = excluded.window_ms, used = ` +
          `excluded.used, expires_at = excluded.expires_at`,
      ).run(key, windowStart, windowMs, used + cost, Math.ceil(windowStart + windowMs));
      return RateLimitResult.allowed(maxTokens - (used + cost));
    });
  }

  /**
   * Tokens used in `key`'s current window: 0 for an unknown key or an elapsed window (measured
   * with the window the key was last consumed with).
   *
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails or the bucket's row is malformed.
   */
  getUsage(key: string): number {
    return this.#database.read('rate_limit', (db) => {
      const bucket = toBucket(db.prepare(SELECT_BUCKET).get(key) as BucketRow | undefined);
      return bucket === undefined || this.#database.now() - bucket.windowStart >= bucket.windowMs ? 0 : bucket.used;
    });
  }

  /**
   * Forgets `key`'s usage.
   *
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails.
   */
  reset(key: string): void {
    this.#database.read('rate_limit', (db) => db.prepare('DELETE FROM rate_limit_buckets WHERE key = ?').run(key));
  }
}
