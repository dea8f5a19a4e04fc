/**
 * The outcome of one `RateLimiter.consume()`. Fields are `readonly` in the type but the instance is
 * deliberately not frozen: one is built per rate-limited call, it only travels from the limiter to the
 * registry, and `Object.freeze` costs more than the rest of an in-memory limiter's work (see
 * docs/benchmarks.md).
 */
export class RateLimitResult {
  /** Whether the cost was granted (and deducted). */
  readonly allowed: boolean;
  /** Why it was denied, or null. */
  readonly reason: string | null;
  /** Seconds until the window resets, on a denial; else null. */
  readonly retryAfterSeconds: number | null;
  /** Tokens left in the window after an allowed consume; else null. */
  readonly remainingTokens: number | null;

  /** Prefer the {@link RateLimitResult.allowed} and {@link RateLimitResult.denied} factories. */
  constructor(allowed: boolean, reason: string | null, retryAfterSeconds: number | null, remainingTokens: number | null) {
    this.allowed = allowed;
    this.reason = reason;
    this.retryAfterSeconds = retryAfterSeconds;
    this.remainingTokens = remainingTokens;
  }

  /** Granted, with `remaining` tokens left. */
  static allowed(remaining = 0): RateLimitResult {
    return new RateLimitResult(true, null, null, remaining);
  }

  /** Denied, with the reason and the seconds until a retry can succeed. */
  static denied(reason: string, retryAfterSeconds = 0): RateLimitResult {
    return new RateLimitResult(false, reason, retryAfterSeconds, null);
  }
}

/**
 * Throttles calls by key (the registry uses `channel:principal:tool`). Implementations may be
 * async (a store shared across processes); `consume` must be atomic per key.
 */
export interface RateLimiter {
  /** Deducts `cost` from the key's budget of `maxTokens` per `windowSeconds`, or denies without deducting. */
  consume(key: string, cost?: number, windowSeconds?: number, maxTokens?: number): RateLimitResult | Promise<RateLimitResult>;
  /** Tokens used in the key's current window (0 for an unknown key). */
  getUsage(key: string): number | Promise<number>;
  /** Forgets the key's usage. */
  reset(key: string): void | Promise<void>;
}
