import { InMemoryRateLimiter, rateLimitKey } from '@milpa/tool-runtime';
import { describe, expect, it } from 'vitest';
import { ToolCostRateLimiter } from './tool-cost-rate-limiter.js';

describe('ToolCostRateLimiter', () => {
  it("charges a tool's own cost instead of the registry's, and the registry's for other tools", async () => {
    const inner = new InMemoryRateLimiter();
    const limiter = new ToolCostRateLimiter(inner, (tool) => (tool === 'files_search' ? 30 : null));
    const searchKey = rateLimitKey('mcp', 'agent:a:b', 'files_search');
    const readKey = rateLimitKey('mcp', 'agent:a:b', 'files_read');
    await limiter.consume(searchKey, 1, 60, 100);
    await limiter.consume(readKey, 5, 60, 100);
    expect(await limiter.getUsage(searchKey)).toBe(30);
    expect(await limiter.getUsage(readKey)).toBe(5);
    await limiter.reset(searchKey);
    expect(await inner.getUsage(searchKey)).toBe(0);
  });
});
