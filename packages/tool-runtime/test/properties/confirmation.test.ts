import { ToolContext, Type, defineTool, type ConfirmationBinding, type ConfirmationStore, type ToolArgs } from '@milpa/core';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmationTokenStore } from '../../src/confirmation/confirmation-token-store.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { SchemaValidator } from '../../src/validation/schema-validator.js';
import { settleWithin } from './settle-within.js';

const INVALID_TOKEN = 'Invalid or expired confirmation token';
const input = Type.Object({ id: Type.Integer(), note: Type.Optional(Type.String()) }, { additionalProperties: false });
const validator = new SchemaValidator();

/** A registry with two confirmed tools whose handlers record the arguments they ran with. */
function confirmRegistry(store: ConfirmationStore): { registry: ToolRegistry; runs: { tool: string; args: ToolArgs }[] } {
  const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), confirmationStore: store, validator });
  const runs: { tool: string; args: ToolArgs }[] = [];
  for (const name of ['delete_note', 'delete_user']) {
    registry.register(
      defineTool({
        name,
        description: name,
        input,
        requiresConfirmation: true,
        handler: (args) => {
          runs.push({ tool: name, args });
          return `${name} done`;
        },
      }),
    );
  }
  return { registry, runs };
}

/** A store that answers through the scheduler, so fast-check picks the order in which redemptions land. */
function scheduledStore(inner: ConfirmationStore, schedule: <T>(value: T) => Promise<T>): ConfirmationStore {
  return {
    create: (tool, args, summary, binding) => schedule(null).then(() => inner.create(tool, args, summary, binding)),
    consume: (token, tool, binding) => schedule(null).then(() => inner.consume(token, tool, binding)),
    isValid: (token, tool, binding) => inner.isValid(token, tool, binding),
  };
}

// Contexts on which both tools are authorized and confirmed: cli allows all, telegram needs no
// principal, and mcp, web and an unregistered channel need one.
const caller = fc.oneof(
  fc.constant(ToolContext.cli()),
  fc
    .record({
      channel: fc.constantFrom('mcp', 'web', 'telegram', 'kiosk', 'web:admin'),
      principal: fc.constantFrom('alice', 'Alice', 'alice ', 'alice:admin', 'bob', '0', 'chat:1'),
    })
    .map((init) => new ToolContext({ ...init, scopes: ['*'] })),
);

function bindingOf(context: ToolContext): ConfirmationBinding {
  return { principal: context.principal, channel: context.channel };
}

describe('ToolRegistry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('call (property: confirmation tokens)', () => {
    it("executes exactly once, with the first call's args, when N replays of one token race", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.scheduler(),
          caller,
          fc.integer({ min: 0, max: 10 }),
          fc.array(fc.record({ id: fc.integer({ min: 0, max: 10 }), note: fc.string({ maxLength: 5 }) }), { minLength: 2, maxLength: 40 }),
          async (scheduler, context, id, replays) => {
            const { registry, runs } = confirmRegistry(
              scheduledStore(new ConfirmationTokenStore(), (value) => scheduler.schedule(Promise.resolve(value))),
            );
            const token = (await scheduler.waitFor(registry.call('delete_note', { id }, context))).getConfirmToken();
            expect(token).toMatch(/^[0-9a-f]{32}$/);

            const racing = replays.map((args) => registry.call('delete_note', { ...args }, context, { confirmToken: token as string }));
            const results = await settleWithin(scheduler.waitFor(Promise.all(racing)), 5_000, 'the replays');

            expect(results.filter((result) => result.success)).toHaveLength(1);
            expect(runs).toEqual([{ tool: 'delete_note', args: { id } }]);
            for (const result of results.filter((each) => !each.success)) {
              expect(result.error).toBe(INVALID_TOKEN);
              expect(result.meta['code']).toBe('VALIDATION_ERROR');
            }
          },
        ),
        { numRuns: 200 },
      );
    });

    it('never redeems a token for another tool, principal or channel, and leaves it to its rightful caller', async () => {
      let foreignAttempts = 0;
      await fc.assert(
        fc.asyncProperty(
          caller,
          fc.array(fc.tuple(caller, fc.constantFrom('delete_note', 'delete_user')), { minLength: 1, maxLength: 6 }),
          async (owner, intruders) => {
            const store = new ConfirmationTokenStore();
            const { registry, runs } = confirmRegistry(store);
            const token = (await registry.call('delete_note', { id: 1 }, owner)).getConfirmToken();
            let foreign = 0;
            for (const [context, tool] of intruders) {
              const sameCaller = context.principal === owner.principal && context.channel === owner.channel;
              if (sameCaller && tool === 'delete_note') continue;
              foreign += 1;
              const result = await registry.call(tool, { id: 2 }, context, { confirmToken: token as string });
              expect(result.success).toBe(false);
              expect(result.error).toBe(INVALID_TOKEN);
            }
            expect(runs).toEqual([]);
            // A wrong guess does not burn the token.
            expect(store.isValid(token, 'delete_note', bindingOf(owner))).toBe(true);
            const redeemed = await registry.call('delete_note', { id: 3 }, owner, { confirmToken: token as string });
            expect(redeemed.success).toBe(true);
            expect(runs).toEqual([{ tool: 'delete_note', args: { id: 1 } }]);
            foreignAttempts += foreign;
          },
        ),
        { numRuns: 300 },
      );
      expect(foreignAttempts).toBeGreaterThan(300);
    });

    it('redeems a token only while the current second is within its TTL of the second it was minted in', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 120 }),
          fc.integer({ min: 0, max: 999 }),
          fc.integer({ min: 0, max: 125_000 }),
          caller,
          async (ttlSeconds, offsetMs, elapsedMs, context) => {
            const mintedAt = Date.UTC(2026, 7, 15, 14, 0, 0) + offsetMs;
            vi.setSystemTime(mintedAt);
            const { registry, runs } = confirmRegistry(new ConfirmationTokenStore({ ttlSeconds }));
            const token = (await registry.call('delete_note', { id: 5 }, context)).getConfirmToken();
            vi.setSystemTime(mintedAt + elapsedMs);
            const result = await registry.call('delete_note', { id: 5 }, context, { confirmToken: token as string });
            const live = Math.floor((mintedAt + elapsedMs) / 1000) <= Math.floor(mintedAt / 1000) + ttlSeconds;
            expect(result.success).toBe(live);
            expect(runs).toHaveLength(live ? 1 : 0);
            if (!live) expect(result.error).toBe(INVALID_TOKEN);
            // Past one whole TTL plus a second, nothing redeems, whatever the offset.
            if (elapsedMs >= (ttlSeconds + 1) * 1000) expect(result.success).toBe(false);
            if (elapsedMs < ttlSeconds * 1000) expect(result.success).toBe(true);
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});
