import { MilpaError, RateLimitResult } from '@milpa/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InMemoryRateLimiter } from './in-memory-rate-limiter.js';

describe('InMemoryRateLimiter', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-08-15T14:00:00Z'));
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  describe('consume', () => {
    it('allows a first consume and reports the remaining tokens', () => {
      const limiter = new InMemoryRateLimiter();
      const result = limiter.consume('test:key', 1, 60, 100);
      expect(result.allowed).toBe(true);
      expect(result.remainingTokens).toBe(99);
    });

    it('uses cost 1, a 60 s window and 100 tokens by default', () => {
      const limiter = new InMemoryRateLimiter();
      for (let call = 0; call < 100; call += 1) expect(limiter.consume('k').allowed).toBe(true);
      const denied = limiter.consume('k');
      expect(denied.allowed).toBe(false);
      expect(denied.reason).toBe("Rate limit exceeded for 'k': max 100 tokens per 60s.");
    });

    it('leaves 50 and then 0 tokens after two consumes of 50', () => {
      const limiter = new InMemoryRateLimiter();
      expect(limiter.consume('test:key', 50).remainingTokens).toBe(50);
      expect(limiter.consume('test:key', 50).remainingTokens).toBe(0);
    });

    it('denies with the key, budget and window in the reason and a positive retry-after when the bucket is full', () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('cli:cli:add', 100, 60, 100);
      vi.advanceTimersByTime(15_000);
      const result = limiter.consume('cli:cli:add', 1, 60, 100);
      expect(result).toBeInstanceOf(RateLimitResult);
      expect(result.allowed).toBe(false);
      expect(result.reason).toBe("Rate limit exceeded for 'cli:cli:add': max 100 tokens per 60s.");
      expect(result.retryAfterSeconds).toBe(45);
    });

    it('reports a retry-after of at least one second just before the window resets', () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('k', 100);
      vi.advanceTimersByTime(59_999);
      expect(limiter.consume('k').retryAfterSeconds).toBe(1);
    });

    it('deducts nothing when it denies', () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('k', 95);
      expect(limiter.consume('k', 10).allowed).toBe(false);
      expect(limiter.getUsage('k')).toBe(95);
      expect(limiter.consume('k', 5).allowed).toBe(true);
    });

    it('denies a cost larger than the whole budget on an empty bucket', () => {
      const limiter = new InMemoryRateLimiter();
      expect(limiter.consume('k', 150, 60, 100).allowed).toBe(false);
      expect(limiter.getUsage('k')).toBe(0);
    });

    it('keeps keys independent', () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('key1', 100);
      expect(limiter.consume('key1').allowed).toBe(false);
      expect(limiter.consume('key2').allowed).toBe(true);
    });

    it('allows maxTokens calls of cost 1 and denies the next', () => {
      const limiter = new InMemoryRateLimiter();
      for (let call = 0; call < 10; call += 1) expect(limiter.consume('k', 1, 60, 10).allowed).toBe(true);
      expect(limiter.consume('k', 1, 60, 10).allowed).toBe(false);
    });

    it('allows 20 mutating calls of cost 5 and denies the 21st', () => {
      const limiter = new InMemoryRateLimiter();
      for (let call = 0; call < 20; call += 1) expect(limiter.consume('k', 5).allowed).toBe(true);
      expect(limiter.consume('k', 5).allowed).toBe(false);
    });

    it('starts a fresh window once the window has elapsed (fixed, not sliding)', () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('k', 60);
      vi.advanceTimersByTime(30_000);
      limiter.consume('k', 40);
      expect(limiter.consume('k').allowed).toBe(false);
      vi.advanceTimersByTime(30_000);
      // A sliding window would still count the 40 spent 30 s ago.
      const result = limiter.consume('k', 100);
      expect(result.allowed).toBe(true);
      expect(result.remainingTokens).toBe(0);
    });

    it('honours a custom window', () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('k', 3, 5, 3);
      expect(limiter.consume('k', 1, 5, 3).retryAfterSeconds).toBe(5);
      vi.advanceTimersByTime(5_000);
      expect(limiter.consume('k', 1, 5, 3).allowed).toBe(true);
    });

    it('accepts a zero cost without spending anything', () => {
      const limiter = new InMemoryRateLimiter();
      expect(limiter.consume('k', 0).remainingTokens).toBe(100);
    });

    it.each([
      ['cost', [-1, 60, 100]],
      ['cost', [Number.NaN, 60, 100]],
      ['cost', [Number.POSITIVE_INFINITY, 60, 100]],
      ['windowSeconds', [1, 0, 100]],
      ['windowSeconds', [1, -60, 100]],
      ['windowSeconds', [1, Number.NaN, 100]],
      ['maxTokens', [1, 60, 10.5]],
      ['maxTokens', [1, 60, -1]],
      ['maxTokens', [1, 60, Number.NaN]],
    ] as const)('throws INVALID_ARGUMENT naming %s for bad arguments %j', (name, [cost, window, max]) => {
      const limiter = new InMemoryRateLimiter();
      try {
        limiter.consume('k', cost, window, max);
        expect.unreachable();
      } catch (error) {
        expect(MilpaError.isInstance(error) && error.code).toBe('INVALID_ARGUMENT');
        expect((error as Error).message).toContain(name);
      }
      expect(limiter.size()).toBe(0);
    });

    it('denies every positive cost without throwing when maxTokens is 0', () => {
      const limiter = new InMemoryRateLimiter();
      const result = limiter.consume('k', 1, 60, 0);
      expect(result.allowed).toBe(false);
      expect(result.reason).toBe("Rate limit exceeded for 'k': max 0 tokens per 60s.");
      expect(limiter.consume('k', 0, 60, 0).remainingTokens).toBe(0);
    });

    it('spends a fractional cost exactly when the cost is not a whole number', () => {
      const limiter = new InMemoryRateLimiter();
      expect(limiter.consume('k', 0.5, 60, 1).remainingTokens).toBe(0.5);
      expect(limiter.consume('k', 0.5, 60, 1).remainingTokens).toBe(0);
      expect(limiter.consume('k', 0.5, 60, 1).allowed).toBe(false);
    });

    it('resets after a fractional window when the window is not a whole number of seconds', () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('k', 1, 0.5, 1);
      vi.advanceTimersByTime(499);
      const denied = limiter.consume('k', 1, 0.5, 1);
      expect(denied.allowed).toBe(false);
      expect(denied.reason).toBe("Rate limit exceeded for 'k': max 1 tokens per 0.5s.");
      vi.advanceTimersByTime(1);
      expect(limiter.consume('k', 1, 0.5, 1).allowed).toBe(true);
    });

    it('throws INVALID_ARGUMENT for a non-string key', () => {
      expect(() => new InMemoryRateLimiter().consume(42 as never)).toThrow(MilpaError);
      expect(() => new InMemoryRateLimiter().consume(42 as never)).toThrow('Rate limit key must be a string.');
    });

    it.each([
      [[-1, 60, 100], 'Rate limit cost must be a non-negative finite number, got -1.'],
      [[1, 0, 100], 'Rate limit windowSeconds must be a positive finite number, got 0.'],
      [[1, 60, 10.5], 'Rate limit maxTokens must be a non-negative integer, got 10.5.'],
    ] as const)('says what it expected when the arguments are %j', ([cost, window, max], message) => {
      expect(() => new InMemoryRateLimiter().consume('k', cost, window, max)).toThrow(message);
    });

    it('opens a fresh window when the key comes back with a shorter window that has elapsed', () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('k', 5, 600, 10);
      vi.advanceTimersByTime(60_000);
      // 60 s into a 600 s bucket: a 60 s window has just elapsed, so the budget starts again.
      expect(limiter.consume('k', 1, 60, 10).remainingTokens).toBe(9);
      expect(limiter.getUsage('k')).toBe(1);
      vi.advanceTimersByTime(59_999);
      expect(limiter.getUsage('k')).toBe(1);
    });

    it('keeps the count and stretches the expiry when the key comes back with a longer window', () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('k', 5, 60, 10);
      vi.advanceTimersByTime(30_000);
      expect(limiter.consume('k', 1, 600, 10).remainingTokens).toBe(4);
      vi.advanceTimersByTime(60_000);
      // 90 s after the window opened: the 600 s window still holds both spends.
      expect(limiter.getUsage('k')).toBe(6);
      expect(limiter.consume('k', 5, 600, 10).allowed).toBe(false);
    });

    it('lets exactly the budget through when many callers race on one key', async () => {
      const limiter = new InMemoryRateLimiter();
      const results = await Promise.all(Array.from({ length: 250 }, async () => limiter.consume('shared', 1, 60, 100)));
      expect(results.filter((result) => result.allowed)).toHaveLength(100);
    });
  });

  describe('getUsage', () => {
    it('returns 0 for an unknown key and the tokens used otherwise', () => {
      const limiter = new InMemoryRateLimiter();
      expect(limiter.getUsage('k')).toBe(0);
      limiter.consume('k', 25);
      expect(limiter.getUsage('k')).toBe(25);
      limiter.consume('k', 10);
      expect(limiter.getUsage('k')).toBe(35);
    });

    it('returns 0 once the window has elapsed', () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('k', 25, 10);
      vi.advanceTimersByTime(9_999);
      expect(limiter.getUsage('k')).toBe(25);
      vi.advanceTimersByTime(1);
      expect(limiter.getUsage('k')).toBe(0);
      limiter.consume('j', 5, 600);
      vi.advanceTimersByTime(61_000);
      expect(limiter.getUsage('j')).toBe(5);
      expect(limiter.getUsage('j', 60)).toBe(0);
    });

    it("measures against an explicit window shorter than the bucket's when one is given", () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('k', 5, 600);
      vi.advanceTimersByTime(30_000);
      expect(limiter.getUsage('k', 60)).toBe(5);
      vi.advanceTimersByTime(30_000);
      expect(limiter.getUsage('k', 60)).toBe(0);
      expect(limiter.getUsage('k')).toBe(5);
    });
  });

  describe('reset', () => {
    it('forgets the usage of a key', () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('k', 100);
      limiter.reset('k');
      expect(limiter.getUsage('k')).toBe(0);
      expect(limiter.consume('k').allowed).toBe(true);
    });
  });

  describe('cleanup', () => {
    it('removes buckets whose window opened more than maxAge ago and keeps fresh ones', () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('old');
      vi.advanceTimersByTime(301_000);
      limiter.consume('fresh');
      expect(limiter.cleanup()).toBe(1);
      expect(limiter.size()).toBe(1);
      expect(limiter.cleanup(0)).toBe(0);
      expect(limiter.getUsage('fresh')).toBe(1);
    });

    it('keeps a bucket made a few milliseconds ago when maxAge is 0', () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('fresh', 3);
      vi.advanceTimersByTime(5);
      expect(limiter.cleanup(0)).toBe(0);
      expect(limiter.getUsage('fresh')).toBe(3);
      vi.advanceTimersByTime(995);
      expect(limiter.cleanup(0)).toBe(1);
      expect(limiter.size()).toBe(0);
    });

    it('keeps a bucket made a second ago when maxAge is a few seconds', () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('k', 7, 600);
      vi.advanceTimersByTime(1_000);
      expect(limiter.cleanup(2)).toBe(0);
      expect(limiter.size()).toBe(1);
      expect(limiter.getUsage('k')).toBe(7);
    });

    it('keeps a bucket until a whole second more than maxAge has elapsed', () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('k', 7, 600);
      vi.advanceTimersByTime(2_999);
      expect(limiter.cleanup(2)).toBe(0);
      vi.advanceTimersByTime(1);
      expect(limiter.cleanup(2)).toBe(1);
      expect(limiter.size()).toBe(0);
    });

    it('throws INVALID_ARGUMENT for a negative age', () => {
      expect(() => new InMemoryRateLimiter().cleanup(-1)).toThrow(MilpaError);
      expect(() => new InMemoryRateLimiter().cleanup(-1)).toThrow('Rate limit maxAgeSeconds must be a non-negative finite number, got -1.');
    });

    it('accepts a fractional age', () => {
      const limiter = new InMemoryRateLimiter();
      limiter.consume('k');
      vi.advanceTimersByTime(1_999);
      expect(limiter.cleanup(1.5)).toBe(0);
      vi.advanceTimersByTime(1);
      expect(limiter.cleanup(1.5)).toBe(1);
    });
  });

  describe('size', () => {
    it('stays bounded over a long soak of calls on ever-new keys', () => {
      const limiter = new InMemoryRateLimiter();
      let largest = 0;
      for (let call = 0; call < 200_000; call += 1) {
        limiter.consume(`web:user-${call}:search`, 1, 1, 100);
        vi.advanceTimersByTime(1);
        largest = Math.max(largest, limiter.size());
      }
      // One window (1 s at one call per ms) is 1,000 live keys; the amortized sweep keeps at most a
      // few sweep intervals of expired ones around.
      expect(largest).toBeLessThanOrEqual(3_000);
    });

    it('clears a mass expiry in bounded steps as later consumes go by', () => {
      const limiter = new InMemoryRateLimiter();
      for (let call = 0; call < 20_000; call += 1) limiter.consume(`k${call}`, 1, 1, 100);
      vi.advanceTimersByTime(2_000);
      limiter.consume('hot', 1, 1, 100);
      // No single consume pays for all 20,000 expired buckets...
      expect(limiter.size()).toBeGreaterThan(15_000);
      // ...yet they are all gone after as many consumes again.
      for (let call = 0; call < 25_000; call += 1) limiter.consume('hot', 0, 1, 100);
      expect(limiter.size()).toBe(1);
    });

    it('keeps every bucket that is still inside its window', () => {
      const limiter = new InMemoryRateLimiter();
      for (let call = 0; call < 5_000; call += 1) limiter.consume(`k${call}`);
      expect(limiter.size()).toBe(5_000);
      expect(limiter.consume('k0').remainingTokens).toBe(98);
    });
  });
});
