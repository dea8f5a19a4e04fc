import { describe, expect, expectTypeOf, it } from 'vitest';
import { RateLimitResult, type RateLimiter } from './rate-limiter.js';

describe('RateLimitResult', () => {
  describe('allowed', () => {
    it('grants with the remaining tokens and no reason or retry', () => {
      const result = RateLimitResult.allowed(95);

      expect(result).toMatchObject({ allowed: true, reason: null, retryAfterSeconds: null, remainingTokens: 95 });
    });

    it('defaults remaining to 0', () => {
      expect(RateLimitResult.allowed().remainingTokens).toBe(0);
    });
  });

  describe('denied', () => {
    it('refuses with the reason and seconds until a retry can succeed', () => {
      const result = RateLimitResult.denied('Rate limit exceeded for mcp:user:1:list_notes', 42);

      expect(result).toMatchObject({
        allowed: false,
        reason: 'Rate limit exceeded for mcp:user:1:list_notes',
        retryAfterSeconds: 42,
        remainingTokens: null,
      });
    });

    it('defaults the retry to 0 seconds', () => {
      expect(RateLimitResult.denied('no').retryAfterSeconds).toBe(0);
    });
  });
});

describe('RateLimiter', () => {
  it('accepts synchronous and asynchronous implementations', () => {
    expectTypeOf<{
      consume: (key: string, cost?: number) => RateLimitResult;
      getUsage: (key: string) => number;
      reset: (key: string) => void;
    }>().toExtend<RateLimiter>();
    expectTypeOf<{
      consume: (key: string, cost?: number, windowSeconds?: number, maxTokens?: number) => Promise<RateLimitResult>;
      getUsage: (key: string) => Promise<number>;
      reset: (key: string) => Promise<void>;
    }>().toExtend<RateLimiter>();
  });
});
