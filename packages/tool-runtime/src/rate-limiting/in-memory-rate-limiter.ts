import { ExpiringMap, MilpaError, RateLimitResult, type RateLimiter } from '@milpa/core';

interface Bucket {
  /** Epoch milliseconds at which the current window opened. */
  start: number;
  /** Length of the window the bucket was last consumed with, in milliseconds. */
  windowMs: number;
  /** Tokens used in the current window. */
  used: number;
}

// The limiter is on every call's path, so its map sweeps once per SWEEP_INTERVAL operations rather
// than on each: between sweeps a lookup costs one counter step. A sweep removes up to SWEEP_LIMIT
// expired buckets, sixteen per operation on average, so a mass expiry drains quickly while no
// single call removes more than a few hundred.
const SWEEP_INTERVAL = 16;
const SWEEP_LIMIT = 256;

function invalid(message: string): MilpaError {
  return new MilpaError(message, { code: 'INVALID_ARGUMENT' });
}

function requireNumber(name: string, value: unknown, { integer, positive }: { integer: boolean; positive: boolean }): number {
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < 0 ||
    (positive && value === 0) ||
    (integer && !Number.isInteger(value))
  ) {
    const kind = `${positive ? 'a positive' : 'a non-negative'} ${integer ? 'integer' : 'finite number'}`;
    throw invalid(`Rate limit ${name} must be ${kind}, got ${String(value)}.`);
  }
  return value;
}

/**
 * An in-process, fixed-window rate limiter: each key may spend `maxTokens` per window of
 * `windowSeconds`; the window restarts at the first consume after it has elapsed. A denied consume
 * deducts nothing. Synchronous, so a consume is atomic per key within the process.
 *
 * Buckets live in an `ExpiringMap` that expires each one when its window has elapsed: a bucket is
 * dropped when it is next looked up, and expired buckets are swept in bounded steps as consumes go
 * by, so a long-running process serving many distinct callers does not grow without bound and no
 * consume stalls to clear a mass expiry; `cleanup()` sweeps on demand.
 *
 * @example
 * const limiter = new InMemoryRateLimiter();
 * const result = limiter.consume(rateLimitKey('web', 'user:42', 'search'), 1, 60, 100);
 * if (!result.allowed) console.log(result.reason, result.retryAfterSeconds);
 */
export class InMemoryRateLimiter implements RateLimiter {
  /** The time of the current operation; the map reads it instead of a second clock read. */
  #now = 0;
  readonly #buckets = new ExpiringMap<string, Bucket>({
    now: () => this.#now,
    sweepInterval: SWEEP_INTERVAL,
    sweepLimit: SWEEP_LIMIT,
  });

  /**
   * Spends `cost` tokens of `key`'s budget of `maxTokens` per `windowSeconds`, or denies without
   * spending anything. A denial says `Rate limit exceeded for '{key}': max {max} tokens per {window}s.`
   * and carries the whole seconds until the window resets (at least 1).
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a non-string key, a negative or non-finite cost, a
   *   non-positive window, or a negative or non-integer maximum.
   */
  consume(key: string, cost = 1, windowSeconds = 60, maxTokens = 100): RateLimitResult {
    if (typeof key !== 'string') throw invalid('Rate limit key must be a string.');
    // Stryker disable next-line ObjectLiteral: equivalent: {} reads integer and positive as undefined, which requireNumber treats like
    // false.
    requireNumber('cost', cost, { integer: false, positive: false });
    requireNumber('windowSeconds', windowSeconds, { integer: false, positive: true });
    requireNumber('maxTokens', maxTokens, { integer: true, positive: false });

    const now = Date.now();
    this.#now = now;
    const windowMs = windowSeconds * 1000;

    let bucket = this.#buckets.get(key);
    if (bucket === undefined) {
      bucket = { start: now, windowMs, used: 0 };
      this.#buckets.set(key, bucket, now + windowMs);
    } else if (now - bucket.start >= windowMs) {
      bucket.start = now;
      bucket.used = 0;
      bucket.windowMs = windowMs;
      this.#buckets.set(key, bucket, now + windowMs);
    } else if (bucket.windowMs !== windowMs) {
      bucket.windowMs = windowMs;
      this.#buckets.set(key, bucket, bucket.start + windowMs);
    }

    if (bucket.used + cost > maxTokens) {
      const retryAfterSeconds = Math.max(1, Math.ceil((bucket.start + windowMs - now) / 1000));
      return RateLimitResult.denied(`Rate limit exceeded for '${key}': max ${maxTokens} tokens per ${windowSeconds}s.`, retryAfterSeconds);
    }
    bucket.used += cost;
    return RateLimitResult.allowed(maxTokens - bucket.used);
  }

  /**
   * Tokens used in `key`'s current window: 0 for an unknown key or an elapsed window. The window
   * defaults to the one the key was last consumed with.
   */
  getUsage(key: string, windowSeconds?: number): number {
    const now = Date.now();
    this.#now = now;
    const bucket = this.#buckets.get(key);
    if (bucket === undefined) return 0;
    const windowMs = windowSeconds === undefined ? bucket.windowMs : windowSeconds * 1000;
    return now - bucket.start >= windowMs ? 0 : bucket.used;
  }

  /** Forgets `key`'s usage. */
  reset(key: string): void {
    this.#now = Date.now();
    this.#buckets.delete(key);
  }

  /**
   * Removes buckets whose window opened more than `maxAgeSeconds` ago and returns how many were
   * removed. Age counts whole elapsed seconds, so a bucket opened within the last second is fresh
   * and survives even `cleanup(0)`.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a negative or non-finite age.
   */
  cleanup(maxAgeSeconds = 300): number {
    // Stryker disable next-line ObjectLiteral: equivalent: {} reads integer and positive as undefined, which requireNumber treats like
    // false.
    requireNumber('maxAgeSeconds', maxAgeSeconds, { integer: false, positive: false });
    const now = Date.now();
    this.#now = now;
    // Collected first: a delete may also sweep, and a bucket it sweeps still counts as removed here.
    const stale: string[] = [];
    for (const [key, bucket] of this.#buckets.entries()) {
      if (Math.floor((now - bucket.start) / 1000) > maxAgeSeconds) stale.push(key);
    }
    for (const key of stale) this.#buckets.delete(key);
    return stale.length;
  }

  /**
   * The number of buckets held. A bucket whose window has elapsed is held until it is looked up,
   * the next automatic sweep or `cleanup()`, so this is also the limiter's memory footprint in buckets.
   */
  size(): number {
    return this.#buckets.size;
  }
}
