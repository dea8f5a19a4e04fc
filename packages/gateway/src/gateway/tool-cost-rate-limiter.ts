import type { RateLimiter, RateLimitResult } from '@milpa/core';

/**
 * A rate limiter that charges some tools a cost of their own: the registry asks for its usual
 * cost (mutating or not) and this wrapper replaces it with `costOf(tool)` when that is a number.
 * The tool is the last segment of the registry's `channel:principal:tool` key (tool names never
 * contain `:`, so the segment is exact). Everything else is the inner limiter's.
 *
 * @example
 * const limiter = new ToolCostRateLimiter(new InMemoryRateLimiter(), (tool) => (tool === 'files_search' ? 10 : null));
 */
export class ToolCostRateLimiter implements RateLimiter {
  readonly #inner: RateLimiter;
  readonly #costOf: (tool: string) => number | null;

  constructor(inner: RateLimiter, costOf: (tool: string) => number | null) {
    this.#inner = inner;
    this.#costOf = costOf;
  }

  /** Charges the bucket `key` with the tool's own cost, or `cost` when it has none. */
  consume(key: string, cost?: number, windowSeconds?: number, maxTokens?: number): RateLimitResult | Promise<RateLimitResult> {
    const own = this.#costOf(key.slice(key.lastIndexOf(':') + 1));
    return this.#inner.consume(key, own ?? cost, windowSeconds, maxTokens);
  }

  /** The inner limiter's usage of `key`. */
  getUsage(key: string): number | Promise<number> {
    return this.#inner.getUsage(key);
  }

  /** Resets `key` on the inner limiter. */
  reset(key: string): void | Promise<void> {
    return this.#inner.reset(key);
  }
}
