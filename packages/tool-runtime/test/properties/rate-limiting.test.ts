import { ToolContext, Type, defineTool, type RateLimiter, type RateLimitResult } from '@milpa/core';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryRateLimiter } from '../../src/rate-limiting/in-memory-rate-limiter.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { SchemaValidator } from '../../src/validation/schema-validator.js';
import { settleWithin } from './settle-within.js';

const COSTS = { read: 1, write: 3 } as const;
// Shared, so each run's registry reuses the compiled schema.
const validator = new SchemaValidator();
type ToolName = keyof typeof COSTS;

/** A registry with a cheap `read` and a mutating `write` tool; handlers count their executions per key. */
function limitedRegistry(limiter: RateLimiter, budget: number, windowSeconds: number, pause: () => Promise<unknown>) {
  const registry = new ToolRegistry({
    defaultContext: () => ToolContext.cli(),
    validator,
    rateLimiter: limiter,
    rateLimit: { maxTokens: budget, windowSeconds, cost: COSTS.read, mutatingCost: COSTS.write },
  });
  const executions = new Map<string, number>();
  for (const name of ['read', 'write'] as const) {
    registry.register(
      defineTool({
        name,
        description: name,
        input: Type.Object({}),
        mutating: name === 'write',
        handler: async (_args, { context }) => {
          const key = JSON.stringify([context.channel, context.principal, name]);
          executions.set(key, (executions.get(key) ?? 0) + 1);
          await pause();
          return 'done';
        },
      }),
    );
  }
  return { registry, executions };
}

/** A limiter whose answers land when the scheduler says, so calls interleave in every order fast-check tries. */
function scheduledLimiter(inner: InMemoryRateLimiter, pause: () => Promise<unknown>): RateLimiter {
  return {
    consume: (key, cost, windowSeconds, maxTokens): Promise<RateLimitResult> =>
      pause().then(() => inner.consume(key, cost, windowSeconds, maxTokens)),
    getUsage: (key) => inner.getUsage(key),
    reset: (key) => inner.reset(key),
  };
}

// Channels and principals built from ':' and '%' (and their escapes) to try to forge another key.
const channel = fc.constantFrom('web', 'mcp', 'web:a', 'a:web', 'web%3Aa', 'a');
const principal = fc.string({ unit: fc.constantFrom('a', ':', '%', '3', 'A'), minLength: 1, maxLength: 4 });
const call = fc.record({ channel, principal, tool: fc.constantFrom<ToolName>('read', 'write') });

describe('ToolRegistry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('call (property: rate limiting)', () => {
    it('executes exactly min(calls, budget / cost) per caller key, however concurrent calls interleave', async () => {
      let saturated = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.scheduler(),
          fc.integer({ min: 1, max: 12 }),
          fc.array(call, { minLength: 1, maxLength: 60 }),
          async (scheduler, budget, calls) => {
            const pause = (): Promise<unknown> => scheduler.schedule(Promise.resolve());
            const { registry, executions } = limitedRegistry(scheduledLimiter(new InMemoryRateLimiter(), pause), budget, 3_600, pause);
            const pending = Promise.all(
              calls.map(({ channel: on, principal: who, tool }) =>
                registry.call(tool, {}, new ToolContext({ channel: on, principal: who })),
              ),
            );
            const results = await settleWithin(scheduler.waitFor(pending), 5_000, 'the concurrent calls');

            const demand = new Map<string, { calls: number; cost: number }>();
            for (const { channel: on, principal: who, tool } of calls) {
              const key = JSON.stringify([on, who, tool]);
              demand.set(key, { calls: (demand.get(key)?.calls ?? 0) + 1, cost: COSTS[tool] });
            }
            for (const [key, { calls: count, cost }] of demand) {
              // Every (channel, principal, tool) is its own bucket: a collision would make one key get less.
              const expected = Math.min(count, Math.floor(budget / cost));
              expect(executions.get(key) ?? 0, key).toBe(expected);
              if (count > expected) saturated += 1;
            }
            const refused = results.filter((result) => !result.success);
            expect(refused.every((result) => result.meta['code'] === 'RATE_LIMITED')).toBe(true);
            expect(refused).toHaveLength(calls.length - [...executions.values()].reduce((sum, count) => sum + count, 0));
          },
        ),
        { numRuns: 250 },
      );
      expect(saturated).toBeGreaterThan(50);
    });

    it('never lets a key spend more than its budget within one window as time moves (checked against a model)', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const step = fc.oneof(
        { arbitrary: fc.integer({ min: 1, max: 4_000 }).map((ms) => ({ advance: ms }) as const), weight: 1 },
        { arbitrary: call.map((each) => ({ call: each }) as const), weight: 4 },
      );
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 8 }),
          fc.integer({ min: 1, max: 5 }),
          fc.array(step, { minLength: 1, maxLength: 80 }),
          async (budget, windowSeconds, steps) => {
            vi.setSystemTime(Date.UTC(2026, 7, 15, 14, 0, 0));
            const { registry } = limitedRegistry(new InMemoryRateLimiter(), budget, windowSeconds, () => Promise.resolve());
            // The reference model: a fixed window opens at the first call after the last one closed.
            const windows = new Map<string, { start: number; used: number }>();
            for (const each of steps) {
              if ('advance' in each) {
                vi.setSystemTime(Date.now() + each.advance);
                continue;
              }
              const { channel: on, principal: who, tool } = each.call;
              const key = JSON.stringify([on, who, tool]);
              const now = Date.now();
              let window = windows.get(key);
              if (window === undefined || now - window.start >= windowSeconds * 1000) {
                window = { start: now, used: 0 };
                windows.set(key, window);
              }
              const allowed = window.used + COSTS[tool] <= budget;
              const result = await registry.call(tool, {}, new ToolContext({ channel: on, principal: who }));
              expect(result.success, `${key} at +${now - window.start} ms`).toBe(allowed);
              if (allowed) window.used += COSTS[tool];
              expect(window.used).toBeLessThanOrEqual(budget);
              if (!allowed) expect(result.meta['retry_after_seconds']).toBeGreaterThanOrEqual(1);
            }
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});
