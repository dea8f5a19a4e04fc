import { describe, expect, it } from 'vitest';
import { InitializeRateLimiter } from './initialize-rate-limiter.js';

describe('InitializeRateLimiter', () => {
  it('allows the limit per address per minute, then refuses with the seconds left in the window', () => {
    const limiter = new InitializeRateLimiter(2);
    expect(limiter.take('a', 0)).toEqual({ ok: true });
    expect(limiter.take('a', 1000)).toEqual({ ok: true });
    expect(limiter.take('a', 15_500)).toEqual({ ok: false, retryAfterSeconds: 45 });
    expect(limiter.take('a', 59_999)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(limiter.take('b', 59_999)).toEqual({ ok: true });
    expect(limiter.take('a', 60_000)).toEqual({ ok: true });
  });

  it('never tracks more than its bound of addresses, forgetting expired windows first, then the oldest', () => {
    const limiter = new InitializeRateLimiter(1, 3);
    limiter.take('a', 0);
    limiter.take('b', 30_000);
    limiter.take('c', 40_000);
    // 'a' expired: it is forgotten, the others keep their windows.
    limiter.take('d', 61_000);
    expect(limiter.trackedAddresses).toBe(3);
    expect(limiter.take('b', 61_000)).toMatchObject({ ok: false });
    // Nothing expired: the oldest ('b') is forgotten.
    limiter.take('e', 62_000);
    expect(limiter.trackedAddresses).toBe(3);
    expect(limiter.take('c', 62_000)).toMatchObject({ ok: false });
    expect(limiter.take('b', 62_000)).toEqual({ ok: true });
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects the limit %s', (limit) => {
    expect(() => new InitializeRateLimiter(limit)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
