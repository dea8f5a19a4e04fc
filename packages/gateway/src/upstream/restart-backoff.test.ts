import { describe, expect, it } from 'vitest';
import { RestartBackoff } from './restart-backoff.js';

describe('RestartBackoff', () => {
  it('doubles the delay up to the maximum and starts over after reset', () => {
    const backoff = new RestartBackoff({ initialDelayMs: 100, maxDelayMs: 500 });
    expect([backoff.next(), backoff.next(), backoff.next(), backoff.next(), backoff.next()]).toEqual([100, 200, 400, 500, 500]);
    backoff.reset();
    expect(backoff.next()).toBe(100);
  });
});
