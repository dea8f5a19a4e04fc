import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { ToolContext, Type, defineTool, type ToolResult } from '@milpa/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmationTokenStore } from '../../src/confirmation/confirmation-token-store.js';
import { InMemoryRateLimiter } from '../../src/rate-limiting/in-memory-rate-limiter.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';

const CALLS = 200_000;
const BATCH = 50;
const TTL_SECONDS = 5;
const WINDOW_SECONDS = 1;

/** A full garbage collection, when this process can be made to expose one; null otherwise. */
function garbageCollector(): (() => void) | null {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

function heapMiB(gc: (() => void) | null): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

describe('ToolRegistry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('call (soak: 200,000 calls across many keys and tokens)', () => {
    it('keeps the token store and the limiter bounded, and sweeps what expired', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.UTC(2026, 7, 15, 14, 0, 0));
      const store = new ConfirmationTokenStore({ ttlSeconds: TTL_SECONDS });
      const limiter = new InMemoryRateLimiter();
      const registry = new ToolRegistry({
        defaultContext: () => ToolContext.cli(),
        confirmationStore: store,
        rateLimiter: limiter,
        rateLimit: { windowSeconds: WINDOW_SECONDS, maxTokens: 20 },
      });
      let executed = 0;
      registry.register(
        defineTool({ name: 'read_note', description: 'Reads', input: Type.Object({ id: Type.Integer() }), handler: ({ id }) => id }),
      );
      registry.register(
        defineTool({
          name: 'delete_note',
          description: 'Deletes after a confirmation',
          input: Type.Object({ id: Type.Integer() }),
          requiresConfirmation: true,
          handler: () => {
            executed += 1;
            return 'deleted';
          },
        }),
      );
      const contexts = Array.from({ length: 5_000 }, (_, index) => ToolContext.web(`user:${index}`, ['*']));
      const hot = ToolContext.web('user:hot', ['*']);
      const minted: { token: string | null; context: ToolContext }[] = [];
      const gc = garbageCollector();
      const outcomes = new Map<string, number>();
      const count = (result: ToolResult): void => {
        const key = result.requiresConfirmation() ? 'token' : String(result.meta['code'] ?? 'ok');
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      };

      const runBatch = async (start: number): Promise<void> => {
        const pending: Promise<ToolResult>[] = [];
        for (let call = start; call < start + BATCH; call += 1) {
          // One in eight calls comes from one hot caller, far over its budget of 20 a second.
          const context = call % 8 === 3 ? hot : contexts[(call * 7919) % contexts.length]!;
          if (call % 4 === 0) {
            // Mint a token; most are never redeemed and must expire and be swept.
            pending.push(
              registry.call('delete_note', { id: call }, context).then((result) => {
                if (minted.length < 64) minted.push({ token: result.getConfirmToken(), context });
                return result;
              }),
            );
          } else if (call % 16 === 1 && minted.length > 0) {
            const { token, context: owner } = minted.shift()!;
            pending.push(registry.call('delete_note', { id: 0 }, owner, { confirmToken: token as string }));
          } else {
            pending.push(registry.call('read_note', { id: call }, context));
          }
        }
        for (const result of await Promise.all(pending)) count(result);
        vi.setSystemTime(Date.now() + BATCH);
      };

      // Warm up (compiled schemas, caches, JIT) before the first heap reading.
      for (let start = 0; start < 10_000; start += BATCH) await runBatch(start);
      const heapBefore = heapMiB(gc);
      let largestStore = 0;
      let largestLimiter = 0;
      for (let start = 0; start < CALLS; start += BATCH) {
        await runBatch(start);
        largestStore = Math.max(largestStore, store.size());
        largestLimiter = Math.max(largestLimiter, limiter.size());
      }
      const heapAfter = heapMiB(gc);

      // One call a millisecond for 200 s: a TTL of 5 s holds about 1,250 live tokens (one mint in
      // four calls) and a window of 1 s about 1,000 live buckets; the amortized sweeps may keep up to
      // as many expired ones again. Unbounded growth would reach 50,000 tokens and 10,000 buckets.
      expect(largestStore).toBeLessThanOrEqual(3_500);
      expect(largestLimiter).toBeLessThanOrEqual(3_000);
      expect(outcomes.get('token')).toBeGreaterThan(40_000);
      expect(outcomes.get('ok')).toBeGreaterThan(100_000);
      expect(outcomes.get('RATE_LIMITED')).toBeGreaterThan(10_000);
      expect(executed).toBeGreaterThan(1_000);

      // Once everything has expired, ordinary traffic sweeps it away.
      vi.setSystemTime(Date.now() + (TTL_SECONDS + WINDOW_SECONDS + 1) * 1000);
      const probe = contexts[0]!;
      await registry.call('delete_note', { id: 1 }, probe);
      // Each redemption attempt sweeps one bounded step of the token store (256 expired tokens).
      for (let call = 0; call < 16; call += 1) await registry.call('delete_note', { id: 1 }, probe, { confirmToken: 'f'.repeat(32) });
      for (let call = 0; call < 1_100; call += 1) await registry.call('read_note', { id: call }, ToolContext.cli());
      expect(store.size()).toBe(1);
      expect(limiter.size()).toBeLessThanOrEqual(2);

      const growth = heapAfter - heapBefore;
      console.log(
        `[soak] ${CALLS.toLocaleString('en')} calls: heap ${heapBefore.toFixed(1)} MiB -> ${heapAfter.toFixed(1)} MiB ` +
          `(${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MiB, ` +
          `${gc === null ? 'no gc available: figures include garbage' : 'after full gc'}); ` +
          `largest token store ${largestStore}, largest limiter ${largestLimiter}; ` +
          `outcomes ${JSON.stringify(Object.fromEntries(outcomes))}`,
      );
      // With a real collection the retained heap must not grow with the number of calls.
      if (gc !== null) expect(growth).toBeLessThan(16);
    }, 120_000);
  });
});
