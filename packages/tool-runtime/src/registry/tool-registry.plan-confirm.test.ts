import { EventDispatcher } from '@milpa/events';
import { ToolContext, Type, defineTool } from '@milpa/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { ConfirmationTokenStore } from '../confirmation/confirmation-token-store.js';
import { ToolRegistry } from './tool-registry.js';

function setup(extra: Record<string, unknown> = {}) {
  const logger = new RecordingLogger();
  const dispatcher = new EventDispatcher();
  const events: string[] = [];
  dispatcher.subscribe('tool.*', (name) => {
    events.push(name);
  });
  const store = new ConfirmationTokenStore();
  const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger, dispatcher, confirmationStore: store });
  const handler = vi.fn((args: Record<string, unknown>) => args);
  registry.register(
    defineTool({
      name: 'delete_item',
      description: 'Delete an item',
      input: Type.Object(
        {
          id: Type.Integer(),
          force: Type.Optional(Type.Boolean()),
          note: Type.Optional(Type.Union([Type.String(), Type.Null()])),
          tags: Type.Optional(Type.Array(Type.String())),
        },
        { additionalProperties: false },
      ),
      mutating: true,
      scopes: ['write'],
      handler,
      ...extra,
    }),
  );
  return { logger, dispatcher, events, store, registry, handler };
}

describe('ToolRegistry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('call: plan mode', () => {
    it('returns the plan with standard meta and never runs the handler', async () => {
      const { registry, handler } = setup();
      const context = ToolContext.cli().asPlan();
      const result = await registry.call('delete_item', { id: 42 }, context);
      expect(result.success).toBe(true);
      expect(result.data).toEqual({
        plan: {
          tool: 'delete_item',
          mutating: true,
          requires_confirmation: false,
          scopes_required: ['write'],
          timeout: 30,
          timeout_ms: 30_000,
          args: { id: 42 },
        },
      });
      expect(result.meta).toMatchObject({ tool: 'delete_item', request_id: context.requestId, channel: 'cli', principal: 'cli' });
      expect(result.meta).not.toHaveProperty('type');
      expect(handler).not.toHaveBeenCalled();
    });

    it('still validates and authorizes in plan mode', async () => {
      const { registry } = setup();
      expect((await registry.call('delete_item', {}, ToolContext.cli().asPlan())).meta['code']).toBe('VALIDATION_ERROR');
      expect((await registry.call('delete_item', { id: 1 }, ToolContext.web('u', []).asPlan())).meta['code']).toBe('FORBIDDEN');
    });

    it('reports requires_confirmation without minting or consuming a token', async () => {
      const { registry, store } = setup({ requiresConfirmation: true });
      const first = await registry.call('delete_item', { id: 1 });
      const token = first.getConfirmToken();
      const sizeBefore = store.size();
      const plan = await registry.call('delete_item', { id: 1 }, ToolContext.cli().asPlan(), { confirmToken: token as string });
      expect((plan.data as { plan: { requires_confirmation: boolean } }).plan.requires_confirmation).toBe(true);
      expect(store.size()).toBe(sizeBefore);
      expect(store.isValid(token, 'delete_item', { principal: 'cli', channel: 'cli' })).toBe(true);
    });

    it('dispatches no tool.* event, logs the debug line and audits the PLAN outcome', async () => {
      const { registry, events, logger } = setup();
      await registry.call('delete_item', { id: 1 }, ToolContext.cli().asPlan());
      expect(events).toEqual([]);
      expect(logger.messages('debug')).toContain('[ToolRegistry] Plan mode for delete_item - returning plan without execution');
      expect(logger.messages('info').some((line) => line.startsWith('[ToolAudit] PLAN |'))).toBe(true);
    });
  });

  describe('call: confirm', () => {
    it('answers the first call with a token, an action summary and an expiry instead of executing', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-08-15T14:07:11.400Z'));
      const { registry, handler, events, logger } = setup({ requiresConfirmation: true });
      const result = await registry.call('delete_item', { id: 42, force: true, note: null, tags: ['a'] });
      expect(result.success).toBe(true);
      expect(result.requiresConfirmation()).toBe(true);
      const token = result.getConfirmToken();
      expect(token).toMatch(/^[0-9a-f]{32}$/);
      expect(result.data).toEqual({
        requires_confirmation: true,
        confirm_token: token,
        action_summary: 'delete_item(id=42, force=1)',
        expires_at: '2026-08-15T14:08:11+00:00',
      });
      expect(result.message).toBe('delete_item(id=42, force=1)');
      expect(result.meta).toMatchObject({ type: 'confirmation', requires_confirmation: true, tool: 'delete_item', channel: 'cli' });
      expect(handler).not.toHaveBeenCalled();
      expect(events).toEqual([]);
      expect(logger.messages('info').some((line) => line.startsWith('[ToolAudit] CONFIRMATION_REQUESTED |'))).toBe(true);
    });

    it("executes with the first call's args when the token is replayed with other args", async () => {
      const { registry, handler } = setup({ requiresConfirmation: true });
      const first = await registry.call('delete_item', { id: 42 });
      const second = await registry.call('delete_item', { id: 99 }, undefined, { confirmToken: first.getConfirmToken() as string });
      expect(second.success).toBe(true);
      expect(handler).toHaveBeenCalledTimes(1);
      expect(handler.mock.calls[0]?.[0]).toEqual({ id: 42 });
    });

    it('works with a strict schema because confirm_token is stripped before validation', async () => {
      const { registry } = setup({ requiresConfirmation: true });
      const first = await registry.call('delete_item', { id: 1 });
      const second = await registry.call('delete_item', { id: 1 }, undefined, { confirmToken: first.getConfirmToken() as string });
      expect(second.success).toBe(true);
    });

    it('treats a null confirm_token as absent and asks for confirmation', async () => {
      const { registry, handler } = setup({ requiresConfirmation: true });
      const result = await registry.call('delete_item', { id: 1 }, undefined, { confirmToken: null as unknown as string });
      expect(result.getConfirmToken()).toMatch(/^[0-9a-f]{32}$/);
      expect(handler).not.toHaveBeenCalled();
    });

    it('rejects unknown, garbage, non-string, reused and expired tokens with VALIDATION_ERROR and audits them', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const { registry, handler, events, logger } = setup({ requiresConfirmation: true });
      const first = await registry.call('delete_item', { id: 1 });
      const token = first.getConfirmToken();
      await registry.call('delete_item', { id: 1 }, undefined, { confirmToken: token as string });
      const stale = (await registry.call('delete_item', { id: 2 })).getConfirmToken();
      vi.setSystemTime(Date.now() + 62_000);
      const candidates: unknown[] = ['0'.repeat(32), 'garbage', 123, { token }, token, stale];
      for (const candidate of candidates) {
        const result = await registry.call('delete_item', { id: 1 }, undefined, { confirmToken: candidate as string });
        expect(result.error).toBe('Invalid or expired confirmation token');
        expect(result.meta['code']).toBe('VALIDATION_ERROR');
      }
      expect(handler).toHaveBeenCalledTimes(1);
      expect(events).toEqual(['tool.executing', 'tool.executed']);
      expect(logger.messages('warn').filter((line) => line.startsWith('[ToolAudit] INVALID_TOKEN |'))).toHaveLength(candidates.length);
    });

    it('refuses a token minted for another tool and keeps it redeemable for its own tool', async () => {
      const { registry, handler } = setup({ requiresConfirmation: true });
      registry.register(defineTool({ name: 'delete_post', description: 'd', requiresConfirmation: true, handler: () => 'post' }));
      const token = (await registry.call('delete_item', { id: 7 })).getConfirmToken();
      expect((await registry.call('delete_post', {}, undefined, { confirmToken: token as string })).error).toBe(
        'Invalid or expired confirmation token',
      );
      expect((await registry.call('delete_item', { id: 7 }, undefined, { confirmToken: token as string })).success).toBe(true);
      expect(handler).toHaveBeenCalledTimes(1);
    });

    it('refuses a token presented by another principal or on another channel', async () => {
      const { registry, handler } = setup({ requiresConfirmation: true });
      const owner = new ToolContext({ channel: 'telegram', principal: 'user:1', scopes: ['write'] });
      const token = (await registry.call('delete_item', { id: 7 }, owner)).getConfirmToken();
      const thief = new ToolContext({ channel: 'telegram', principal: 'user:2', scopes: ['write'] });
      const otherChannel = new ToolContext({ channel: 'web', principal: 'user:1', scopes: ['write'] });
      expect((await registry.call('delete_item', { id: 7 }, thief, { confirmToken: token as string })).error).toBe(
        'Invalid or expired confirmation token',
      );
      expect((await registry.call('delete_item', { id: 7 }, otherChannel, { confirmToken: token as string })).error).toBe(
        'Invalid or expired confirmation token',
      );
      expect((await registry.call('delete_item', { id: 7 }, owner, { confirmToken: token as string })).success).toBe(true);
      expect(handler).toHaveBeenCalledTimes(1);
    });

    it('executes exactly once when many redemptions of one token race', async () => {
      const { registry, handler } = setup({ requiresConfirmation: true });
      const token = (await registry.call('delete_item', { id: 1 })).getConfirmToken();
      const results = await Promise.all(
        Array.from({ length: 25 }, () => registry.call('delete_item', { id: 1 }, undefined, { confirmToken: token as string })),
      );
      expect(results.filter((result) => result.success)).toHaveLength(1);
      expect(handler).toHaveBeenCalledTimes(1);
    });

    it('validates, authorizes and rate-limits the replay before consuming the token', async () => {
      const { registry } = setup({ requiresConfirmation: true });
      const token = (await registry.call('delete_item', { id: 1 })).getConfirmToken();
      const invalid = await registry.call('delete_item', { id: 'x' }, undefined, { confirmToken: token as string });
      expect(invalid.meta['code']).toBe('VALIDATION_ERROR');
      const unauthorized = await registry.call(
        'delete_item',
        { id: 1 },
        new ToolContext({ channel: 'cli', principal: 'cli', scopes: [] }),
        { confirmToken: token as string },
      );
      expect(unauthorized.meta['code']).toBe('FORBIDDEN');
      expect((await registry.call('delete_item', { id: 1 }, undefined, { confirmToken: token as string })).success).toBe(true);
    });

    it('passes confirm_token through as an ordinary argument when the tool needs no confirmation', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(defineTool({ name: 'echo', description: 'd', handler: (args) => args }));
      expect((await registry.call('echo', { confirm_token: 'abc' })).data).toEqual({ confirm_token: 'abc' });
    });

    it('asks telegram callers to confirm a mutating tool that does not itself require confirmation', async () => {
      const { registry, handler } = setup();
      const context = ToolContext.telegram(5, 'user:5');
      const withScope = context.with({ scopes: ['write'] });
      const first = await registry.call('delete_item', { id: 3 }, withScope);
      expect(first.requiresConfirmation()).toBe(true);
      const second = await registry.call('delete_item', { id: 3 }, withScope, { confirmToken: first.getConfirmToken() as string });
      expect(second.success).toBe(true);
      expect(handler).toHaveBeenCalledTimes(1);
    });

    it('carries the redeemed args on tool.executing and audits the redeemed call as a normal execution', async () => {
      const { registry, dispatcher, logger } = setup({ requiresConfirmation: true });
      const seen: unknown[] = [];
      dispatcher.subscribe('tool.executing', (_name, payload) => {
        seen.push((payload['event'] as { args: unknown }).args);
      });
      const token = (await registry.call('delete_item', { id: 42 })).getConfirmToken();
      await registry.call('delete_item', { id: 99 }, undefined, { confirmToken: token as string });
      expect(seen).toEqual([{ id: 42 }]);
      expect(logger.messages('info').some((line) => / \| delete_item \| cli \| \d+ms \| OK \| args=\{"id":42\}$/.test(line))).toBe(true);
    });

    it('redacts secret arguments in the action summary', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(defineTool({ name: 'rotate', description: 'd', requiresConfirmation: true, handler: () => 1 }));
      const result = await registry.call('rotate', { user: 'ana', password: 'hunter2' });
      expect(result.message).toBe('rotate(user=ana, password=***REDACTED***)');
    });

    it('refuses the call (fail-closed) when the confirmation store throws', async () => {
      const registry = new ToolRegistry({
        defaultContext: () => ToolContext.cli(),
        confirmationStore: {
          create: () => {
            throw new Error('store down');
          },
          consume: () => Promise.reject(new Error('store down')),
          isValid: () => false,
        },
      });
      const handler = vi.fn();
      registry.register(defineTool({ name: 'c', description: 'd', requiresConfirmation: true, handler }));
      expect((await registry.call('c')).meta).toMatchObject({ code: 'STORE_UNAVAILABLE', store: 'confirmation' });
      expect((await registry.call('c', {}, undefined, { confirmToken: 'a'.repeat(32) })).meta).toMatchObject({
        code: 'STORE_UNAVAILABLE',
        store: 'confirmation',
      });
      expect(handler).not.toHaveBeenCalled();
    });
  });
});
