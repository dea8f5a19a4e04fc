import { RateLimitResult, type RateLimiter } from '@milpa/core';
import { checkRateLimitArguments } from '@milpa/core/kit';
import { RedisScript } from '../connection/redis-script.js';
import { malformedData, type StoreConnection } from '../connection/store-connection.js';

/**
 * Spends `ARGV[2]` tokens of a budget of `ARGV[4]` per window of `ARGV[3]` ms at `ARGV[1]`, or
 * denies without spending. The hash holds the window's start, length and tokens used; it lives on
 * the server until its window ends. Answers `{'allowed', remaining}`, `{'denied', msUntilReset}` or
 * `{'malformed'}`. Numbers travel as `%.17g` text, so fractional costs round-trip exactly.
 */
const CONSUME = new RedisScript(
  'rate limit consume',
  `
local now, cost, window, max = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local start, used = now, 0
if redis.call('EXISTS', KEYS[1]) == 1 then
  local row = redis.call('HMGET', KEYS[1], 'start', 'window_ms', 'used')
  local storedStart, storedWindow, storedUsed = tonumber(row[1]), tonumber(row[2]), tonumber(row[3])
  if storedStart == nil or storedStart ~= storedStart or math.abs(storedStart) == math.huge or storedWindow == nil or storedUsed ` +
    `== nil or not (storedWindow > 0) or not (storedUsed >= 0) then
    return {'malformed'}
  end
  if now - storedStart < window then start, used = storedStart, storedUsed end
end
if used + cost > max then return {'denied', string.format('%.17g', start + window - now)} end
used = used + cost
redis.call('HSET', KEYS[1], 'start', string.format('%.17g', start), 'window_ms', ` +
    `string.format('%.17g', window), 'used', string.format('%.17g', used))
redis.call('PEXPIRE', KEYS[1], string.format('%.0f', math.max(1, math.ceil(start + window - now))))
return {'allowed', string.format('%.17g', max - used)}
`,
);

/**
 * The {@link RateLimiter} over Redis: a fixed-window budget per key, shared by every process (on
 * any machine) that uses the same Redis server and prefix. Each key may spend `maxTokens` per
 * window of `windowSeconds`; the window restarts at the first consume after it has elapsed; a
 * denied consume deducts nothing and says how many whole seconds (at least 1) until the window
 * resets.
 *
 * Each `consume` reads and updates its key's hash, `<prefix>rate-limit:<key>`, in one Lua script,
 * so however many callers race, across processes too, the budget is never exceeded. The hash
 * expires on the server when its window ends.
 *
 * Get one from {@link RedisStores.connect}.
 *
 * @example
 * const stores = await RedisStores.connect({ url: 'redis://127.0.0.1:6379' });
 * const registry = new ToolRegistry({ rateLimiter: stores.rateLimiter });
 */
export class RedisRateLimiter implements RateLimiter {
  readonly #connection: StoreConnection;

  /** @internal Use {@link RedisStores.connect}. */
  constructor(connection: StoreConnection) {
    this.#connection = connection;
  }

  /**
   * Spends `cost` tokens of `key`'s budget of `maxTokens` per `windowSeconds`, or denies without
   * spending anything. A denial says `Rate limit exceeded for '{key}': max {max} tokens per {window}s.`
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a non-string key, a negative or non-finite cost, a
   *   non-positive window, or a negative or non-integer maximum.
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the key's data is malformed.
   */
  async consume(key: string, cost = 1, windowSeconds = 60, maxTokens = 100): Promise<RateLimitResult> {
    checkRateLimitArguments(key, cost, windowSeconds, maxTokens);
    const redisKey = this.#connection.key('rate-limit', key);
    const args = [this.#connection.now(), cost, windowSeconds * 1000, maxTokens].map(String);
    const reply = await this.#connection.run('rate_limit', CONSUME, [redisKey], args);
    const [verdict, amount] = Array.isArray(reply) ? (reply as unknown[]) : [];
    const value = typeof amount === 'string' ? Number(amount) : Number.NaN;
    if (verdict === 'allowed' && Number.isFinite(value)) return RateLimitResult.allowed(value);
    if (verdict === 'denied' && Number.isFinite(value)) {
      const retryAfterSeconds = Math.max(1, Math.ceil(value / 1000));
      return RateLimitResult.denied(
        `Rate limit exceeded for '${key}': max ${String(maxTokens)} tokens per ${String(windowSeconds)}s.`,
        retryAfterSeconds,
      );
    }
    throw malformedData('rate_limit', `${redisKey}: a rate limit bucket with missing or out-of-range fields`);
  }

  /**
   * Tokens used in `key`'s current window: 0 for an unknown key or an elapsed window (measured
   * with the window the key was last consumed with).
   *
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the key's data is malformed.
   */
  async getUsage(key: string): Promise<number> {
    const redisKey = this.#connection.key('rate-limit', key);
    const reply = await this.#connection.command('rate_limit', ['HMGET', redisKey, 'start', 'window_ms', 'used']);
    const row = Array.isArray(reply) ? (reply as unknown[]) : [];
    if (row.length === 3 && row.every((field) => field === null)) return 0;
    const [start, windowMs, used] = row.map((field) => (typeof field === 'string' && field !== '' ? Number(field) : Number.NaN));
    if (start === undefined || windowMs === undefined || used === undefined || !Number.isFinite(start) || !(windowMs > 0) || !(used >= 0)) {
      throw malformedData('rate_limit', `${redisKey}: a rate limit bucket with missing or out-of-range fields`);
    }
    return this.#connection.now() - start >= windowMs ? 0 : used;
  }

  /**
   * Forgets `key`'s usage.
   *
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails.
   */
  async reset(key: string): Promise<void> {
    await this.#connection.command('rate_limit', ['DEL', this.#connection.key('rate-limit', key)]);
  }
}
