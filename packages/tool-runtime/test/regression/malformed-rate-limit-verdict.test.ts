import { ToolContext, defineTool, type RateLimitResult } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/registry/tool-registry.js';

// Found by test/properties/fault-injection.test.ts: the verdict was read as `if (!verdict.allowed)`,
// so a limiter answering `{ allowed: '0' }` or `{ allowed: 1 }` (a remote adapter passing a flag
// through unparsed) let the call run, and `{}` was reported as a real RATE_LIMITED. A verdict whose
// `allowed` is not a boolean is a limiter failure: fail closed with STORE_UNAVAILABLE naming the rate limiter.
describe('ToolRegistry', () => {
  describe('call (regression: a malformed rate-limit verdict)', () => {
    it.each([
      ['allowed as the string "0"', { allowed: '0', reason: null }],
      ['allowed as the number 1', { allowed: 1 }],
      ['an empty object', {}],
      ['a string', 'yes'],
      ['null', null],
    ])('refuses with STORE_UNAVAILABLE and runs nothing when the verdict is %s', async (_label, verdict) => {
      const registry = new ToolRegistry({
        defaultContext: () => ToolContext.cli(),
        rateLimiter: { consume: () => verdict as RateLimitResult, getUsage: () => 0, reset: () => undefined },
      });
      let runs = 0;
      registry.register(
        defineTool({
          name: 'send_email',
          description: 'Rate limited',
          handler: () => {
            runs += 1;
            return 'sent';
          },
        }),
      );
      const result = await registry.call('send_email', {}, ToolContext.cli());
      expect(result.success).toBe(false);
      expect(result.meta).toMatchObject({ code: 'STORE_UNAVAILABLE', store: 'rate_limit' });
      expect(result.error).toContain('rate limiter failed (fail-closed)');
      expect(runs).toBe(0);
    });
  });
});
