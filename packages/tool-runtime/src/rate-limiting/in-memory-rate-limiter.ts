import { MilpaError, RateLimitResult, type RateLimiter } from '@milpa/core';

interface Bucket {
  /** Epoch milliseconds at which the current window opened. */
  start: number;
  /** Length of the window the bucket was last consumed with, in milliseconds. */
  windowMs: number;
  /** Tokens used in the current window. */
  used: number;
}

// Expired buckets are swept after this many consumes, or after as many consumes as there were
// buckets left by the previous sweep, whichever is larger: each O(n) sweep is paid for by at least
// n consumes (amortized O(1) per call), and at most twice the live keys are ever held.
const SWEEP_INTERVAL = 1024;

function invalid(message: string): MilpaError {
  return new MilpaError(message, { code: 'INVALID_ARGUMENT' });
}

function requireNumber(name: string, value: unknown, { integer, positive }: { integer: boolean; positive: boolean }): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (positive && value === 0) || (integer && !Number.isInteger(value))) {
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
 * Expired buckets are swept automatically (amortized over consumes), so a long-running process
 * serving many distinct callers does not grow without bound; `cleanup()` sweeps on demand.
 *
 * @example
 * const limiter = new InMemoryRateLimiter();
 * const result = limiter.consume(rateLimitKey('web', 'user:42', 'search'), 1, 60, 100);
 * if (!result.allowed) console.log(result.reason, result.retryAfterSeconds);
 */
export class InMemoryRateLimiter implements RateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  #consumesSinceSweep = 0;
  #nextSweepAfter = SWEEP_INTERVAL;

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
    requireNumber('cost', cost, { integer: false, positive: false });
    requireNumber('windowSeconds', windowSeconds, { integer: false, positive: true });
    requireNumber('maxTokens', maxTokens, { integer: true, positive: false });

    const now = Date.now();
    const windowMs = windowSeconds * 1000;
    this.#sweepWhenDue(now);

    let bucket = this.#buckets.get(key);
    if (bucket === undefined) {
      bucket = { start: now, windowMs, used: 0 };
      this.#buckets.set(key, bucket);
    } else if (now - bucket.start >= windowMs) {
      bucket.start = now;
      bucket.used = 0;
    }
    bucket.windowMs = windowMs;

    if (bucket.used + cost > maxTokens) {
      const retryAfterSeconds = Math.max(1, Math.ceil((bucket.start + windowMs - now) / 1000));
      return RateLimitResult.denied(
        `Rate limit exceeded for '${key}': max ${maxTokens} tokens per ${windowSeconds}s.`,
        retryAfterSeconds,
      );
    }
    bucket.used += cost;
    return RateLimitResult.allowed(maxTokens - bucket.used);
  }

  /**
   * Tokens used in `key`'s current window: 0 for an unknown key or an elapsed window. The window
   * defaults to the one the key was last consumed with.
   */
  getUsage(key: string, windowSeconds?: number): number {
    const bucket = this.#buckets.get(key);
    if (bucket === undefined) return 0;
    const windowMs = windowSeconds === undefined ? bucket.windowMs : windowSeconds * 1000;
    return Date.now() - bucket.start >= windowMs ? 0 : bucket.used;
  }

  /** Forgets `key`'s usage. */
  reset(key: string): void {
    this.#buckets.delete(key);
  }

  /**
   * Removes buckets whose window opened more than `maxAgeSeconds` ago and returns how many were
   * removed.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a negative or non-finite age.
   */
  cleanup(maxAgeSeconds = 300): number {
    requireNumber('maxAgeSeconds', maxAgeSeconds, { integer: false, positive: false });
    const now = Date.now();
    const maxAgeMs = maxAgeSeconds * 1000;
    let removed = 0;
    for (const [key, bucket] of this.#buckets) {
      if (now - bucket.start > maxAgeMs) {
        this.#buckets.delete(key);
        removed += 1;
      }
    }
    return removed;
  }

  /**
   * The number of buckets held. A bucket whose window has elapsed is held until the next automatic
   * sweep or `cleanup()`, so this is also the limiter's memory footprint in buckets.
   */
  size(): number {
    return this.#buckets.size;
  }

  #sweepWhenDue(now: number): void {
    this.#consumesSinceSweep += 1;
    if (this.#consumesSinceSweep >= this.#nextSweepAfter) this.#sweepExpired(now);
  }

  #sweepExpired(now: number): void {
    this.#consumesSinceSweep = 0;
    for (const [key, bucket] of this.#buckets) {
      if (now - bucket.start >= bucket.windowMs) this.#buckets.delete(key);
    }
    this.#nextSweepAfter = Math.max(SWEEP_INTERVAL, this.#buckets.size);
  }
}
