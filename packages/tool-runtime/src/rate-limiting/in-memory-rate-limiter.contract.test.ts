import { rateLimiterContract } from '@milpa/core/testing';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { InMemoryRateLimiter } from './in-memory-rate-limiter.js';

describe('InMemoryRateLimiter', () => {
  // The limiter reads Date.now(); a fake Date lets the window case pass time without waiting.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('the RateLimiter contract', () => {
    const cases = rateLimiterContract({
      create: () => new InMemoryRateLimiter(),
      advanceTime: (milliseconds) => {
        vi.setSystemTime(Date.now() + milliseconds);
      },
    });
    for (const contractCase of cases) it(contractCase.name, contractCase.run);
  });
});
