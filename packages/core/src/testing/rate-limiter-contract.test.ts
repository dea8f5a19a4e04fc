import { describe, expect, it } from 'vitest';
import { RateLimitResult, type RateLimiter } from '../contracts/rate-limiter.js';
import { failingCaseNames } from './contract-failures.test-helper.js';
import { rateLimiterContract } from './rate-limiter-contract.js';

interface Flaws {
  /** a denied cost is deducted anyway. */
  readonly chargesDenials?: boolean;
  /** consume reads, yields, then writes: racing callers overspend. */
  readonly racy?: boolean;
  /** a window never ends. */
  readonly endless?: boolean;
  /** keys are matched by prefix. */
  readonly prefixKeys?: boolean;
}

/** A small fixed-window limiter on a manual clock, with optional flaws the suite must catch. */
class FakeRateLimiter implements RateLimiter {
  readonly #buckets = new Map<string, { start: number; windowMs: number; used: number }>();

  constructor(
    private readonly clock: { now: number },
    private readonly flaws: Flaws,
  ) {}

  async consume(key: string, cost = 1, windowSeconds = 60, maxTokens = 100): Promise<RateLimitResult> {
    const now = this.clock.now;
    const bucket = this.#bucket(key, windowSeconds);
    const used = bucket.used;
    if (this.flaws.racy) await new Promise((resolve) => setTimeout(resolve, 1));
    if (used + cost > maxTokens) {
      if (this.flaws.chargesDenials) bucket.used = used + cost;
      return RateLimitResult.denied(
        `Rate limit exceeded for '${key}'.`,
        Math.max(1, Math.ceil((bucket.start + windowSeconds * 1000 - now) / 1000)),
      );
    }
    bucket.used = used + cost;
    return RateLimitResult.allowed(maxTokens - bucket.used);
  }

  getUsage(key: string): number {
    const stored = this.#buckets.get(key);
    return stored === undefined ? 0 : this.#bucket(key, stored.windowMs / 1000).used;
  }

  reset(key: string): void {
    this.#buckets.delete(key);
  }

  #bucket(key: string, windowSeconds: number): { start: number; windowMs: number; used: number } {
    const stored = this.flaws.prefixKeys ? [...this.#buckets].find(([known]) => key.startsWith(known))?.[1] : this.#buckets.get(key);
    if (stored !== undefined && (this.flaws.endless || this.clock.now - stored.start < windowSeconds * 1000)) return stored;
    const fresh = { start: this.clock.now, windowMs: windowSeconds * 1000, used: 0 };
    this.#buckets.set(key, fresh);
    return fresh;
  }
}

function casesFor(flaws: Flaws = {}) {
  const clock = { now: Date.UTC(2030, 0, 1) };
  return rateLimiterContract({
    create: () => new FakeRateLimiter(clock, flaws),
    advanceTime: (milliseconds) => {
      clock.now += milliseconds;
    },
  });
}

describe('rateLimiterContract', () => {
  it('passes a limiter that keeps the contract', async () => {
    expect(await failingCaseNames(casesFor())).toEqual([]);
  });

  it('fails a limiter that deducts denied costs', async () => {
    expect(await failingCaseNames(casesFor({ chargesDenials: true }))).toEqual([
      'consume grants the budget exactly and denies the next cost without deducting it',
      'a denied cost is not deducted, so a smaller one still fits',
      'consume denies a cost larger than the whole budget on an unused key',
      'consume never grants more than the budget when 40 callers race on one key',
    ]);
  });

  it('fails a limiter that overspends when callers race', async () => {
    expect(await failingCaseNames(casesFor({ racy: true }))).toEqual([
      'consume never grants more than the budget when 40 callers race on one key',
    ]);
  });

  it('fails a limiter whose windows never end', async () => {
    expect(await failingCaseNames(casesFor({ endless: true }))).toEqual([
      'a spent budget is granted again once its window has passed, and the old usage is gone',
    ]);
  });

  it('fails a limiter that mixes up keys sharing a prefix', async () => {
    expect(await failingCaseNames(casesFor({ prefixKeys: true }))).toEqual([
      'keys are independent, also when one is a prefix of another or holds pattern characters',
    ]);
  });
});
