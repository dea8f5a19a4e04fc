import { EventDispatcher } from '@milpa/events';
import { RateLimitResult, ToolContext, defineTool, type PolicyRuleProvider, type RateLimiter } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { InMemoryRateLimiter } from '../rate-limiting/in-memory-rate-limiter.js';
import { ToolRegistry } from './tool-registry.js';

const tool = (name: string, extra: Record<string, unknown> = {}) => defineTool({ name, description: 'd', handler: () => 'ran', ...extra });

describe('ToolRegistry', () => {
  describe('call: authorize', () => {
    it('denies an mcp context without a principal with the require_auth message', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(tool('any_tool'));
      const result = await registry.call('any_tool', {}, new ToolContext({ channel: 'mcp' }));
      expect(result.meta['code']).toBe('FORBIDDEN');
      expect(result.error).toBe("channel 'mcp' requires an authenticated principal (require_auth) — none provided.");
    });

    it('audits the denial, returns FORBIDDEN and runs neither handler, limiter nor tool.executing', async () => {
      const logger = new RecordingLogger();
      const dispatcher = new EventDispatcher();
      const executing = vi.fn();
      dispatcher.subscribe('tool.executing', executing);
      const limiter: RateLimiter = { consume: vi.fn(() => RateLimitResult.allowed(1)), getUsage: () => 0, reset: () => undefined };
      const handler = vi.fn();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger, dispatcher, rateLimiter: limiter });
      registry.register(defineTool({ name: 'get_report', description: 'd', scopes: ['reports:read'], handler }));
      const result = await registry.call('get_report', {}, ToolContext.web('user:1', ['posts:read']));
      expect(result.error).toBe("Missing required scope for tool 'get_report'. Need one of: reports:read — context has: posts:read.");
      expect(handler).not.toHaveBeenCalled();
      expect(limiter.consume).not.toHaveBeenCalled();
      expect(executing).not.toHaveBeenCalled();
      expect(logger.messages('warn')).toContain(
        `[ToolAudit] AUTH_DENIED | ${result.meta['request_id'] as string} | web | get_report | user:1 | reason=Missing required ` +
          `scope for tool 'get_report'. Need one of: reports:read — context has: posts:read.`,
      );
    });

    it('allows any tool on the cli channel, including mutating ones', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(tool('wipe', { mutating: true }));
      expect((await registry.call('wipe', {}, ToolContext.cli())).data).toBe('ran');
    });

    it('denies (fail-closed) with FORBIDDEN naming the provider failure when the rule provider throws', async () => {
      const logger = new RecordingLogger();
      const handler = vi.fn();
      const ruleProvider: PolicyRuleProvider = {
        findMatchingRule: () => {
          throw new Error('database unreachable');
        },
      };
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger, ruleProvider });
      registry.register(defineTool({ name: 'guarded', description: 'd', handler }));
      const result = await registry.call('guarded', {}, ToolContext.web('user:1', []));
      expect(result.meta['code']).toBe('FORBIDDEN');
      expect(result.error).toContain('database unreachable');
      expect(result.error).toContain('fail-closed');
      expect(handler).not.toHaveBeenCalled();
      expect(logger.matching('AUTH_DENIED')).toHaveLength(1);
    });

    it('denies when an async rule provider rejects', async () => {
      const registry = new ToolRegistry({
        defaultContext: () => ToolContext.cli(),
        ruleProvider: { findMatchingRule: () => Promise.reject(new Error('timeout')) },
      });
      registry.register(tool('guarded'));
      const result = await registry.call('guarded', {}, ToolContext.web('user:1', []));
      expect(result.meta['code']).toBe('FORBIDDEN');
    });

    it('applies an async allow rule from the provider', async () => {
      const ruleProvider: PolicyRuleProvider = {
        findMatchingRule: async () => ({ id: 7, effect: 'allow', requiresScopes: [], description: null }),
      };
      const registry = new ToolRegistry({
        defaultContext: () => ToolContext.cli(),
        ruleProvider,
        channelPolicies: { api: { block_mutating: true } },
      });
      registry.register(tool('wipe', { mutating: true }));
      const result = await registry.call('wipe', {}, new ToolContext({ channel: 'api', principal: 'svc' }));
      expect(result.data).toBe('ran');
    });

    it("sends the unknown-channel warning to the registry's logger", async () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger });
      registry.register(tool('t'));
      const result = await registry.call('t', {}, new ToolContext({ channel: 'mystery-channel', principal: 'p', scopes: ['*'] }));
      expect(result.success).toBe(true);
      expect(
        logger.messages('warn').filter((line) => line.startsWith("PolicyGate: channel 'mystery-channel' is not a registered channel")),
      ).toHaveLength(1);
    });

    it('denies an unknown channel without a principal (fail-closed)', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(tool('t'));
      const result = await registry.call('t', {}, new ToolContext({ channel: 'mystery-channel' }));
      expect(result.error).toBe("channel 'mystery-channel' requires an authenticated principal (require_auth) — none provided.");
    });
  });

  describe('call: rate-limit', () => {
    it('does nothing when no limiter is set', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(tool('t'));
      for (let index = 0; index < 150; index += 1) expect((await registry.call('t')).success).toBe(true);
    });

    it('allows 100 non-mutating calls and denies the 101st', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), rateLimiter: new InMemoryRateLimiter() });
      registry.register(tool('read'));
      for (let index = 0; index < 100; index += 1) expect((await registry.call('read', {}, ToolContext.cli())).success).toBe(true);
      const denied = await registry.call('read', {}, ToolContext.cli());
      expect(denied.meta['code']).toBe('RATE_LIMITED');
      expect(denied.error).toBe("Rate limit exceeded for 'cli:cli:read': max 100 tokens per 60s.");
      expect(denied.meta['retry_after_seconds']).toBeGreaterThan(0);
    });

    it('charges mutating tools 5, so 20 calls pass and the 21st is denied', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), rateLimiter: new InMemoryRateLimiter() });
      registry.register(tool('write', { mutating: true }));
      for (let index = 0; index < 20; index += 1) expect((await registry.call('write')).success).toBe(true);
      expect((await registry.call('write')).meta['code']).toBe('RATE_LIMITED');
    });

    it('consumes the key channel:principal:tool with the default cost, window and budget', async () => {
      const consume = vi.fn(() => RateLimitResult.allowed(99));
      const registry = new ToolRegistry({
        defaultContext: () => ToolContext.cli(),
        rateLimiter: { consume, getUsage: () => 0, reset: () => undefined },
      });
      registry.register(tool('read'));
      registry.register(tool('write', { mutating: true }));
      await registry.call('read', {}, new ToolContext({ channel: 'web', principal: 'user:1' }));
      await registry.call('write', {}, new ToolContext({ channel: 'cli', principal: null }));
      expect(consume).toHaveBeenNthCalledWith(1, 'web:user:1:read', 1, 60, 100);
      expect(consume).toHaveBeenNthCalledWith(2, 'cli::write', 5, 60, 100);
    });

    it("consumes each caller's own key when callers take turns on one tool", async () => {
      const consume = vi.fn((_key: string) => RateLimitResult.allowed(99));
      const registry = new ToolRegistry({
        defaultContext: () => ToolContext.cli(),
        rateLimiter: { consume, getUsage: () => 0, reset: () => undefined },
      });
      registry.register(tool('read'));
      const callers = [
        new ToolContext({ channel: 'web', principal: 'user:1' }),
        new ToolContext({ channel: 'web', principal: 'user:2' }),
        new ToolContext({ channel: 'web', principal: 'user:1' }),
        new ToolContext({ channel: 'cli', principal: 'user:1' }),
        new ToolContext({ channel: 'cli', principal: null }),
        new ToolContext({ channel: 'cli', principal: '' }),
      ];
      for (const caller of callers) await registry.call('read', {}, caller);
      expect(consume.mock.calls.map(([key]) => key)).toEqual([
        'web:user:1:read',
        'web:user:2:read',
        'web:user:1:read',
        'cli:user:1:read',
        'cli::read',
        'cli::read',
      ]);
    });

    it('uses the configured window, budget and costs', async () => {
      const consume = vi.fn(() => RateLimitResult.allowed(1));
      const registry = new ToolRegistry({
        defaultContext: () => ToolContext.cli(),
        rateLimiter: { consume, getUsage: () => 0, reset: () => undefined },
        rateLimit: { windowSeconds: 10, maxTokens: 3, cost: 2, mutatingCost: 3 },
      });
      registry.register(tool('read'));
      registry.register(tool('write', { mutating: true }));
      await registry.call('read');
      await registry.call('write');
      expect(consume).toHaveBeenNthCalledWith(1, 'cli:cli:read', 2, 10, 3);
      expect(consume).toHaveBeenNthCalledWith(2, 'cli:cli:write', 3, 10, 3);
    });

    it('keeps budgets apart for callers whose naive keys would collide through ":"', async () => {
      const registry = new ToolRegistry({
        defaultContext: () => ToolContext.cli(),
        rateLimiter: new InMemoryRateLimiter(),
        rateLimit: { maxTokens: 2 },
      });
      registry.register(tool('t'));
      const attacker = new ToolContext({ channel: 'web', principal: 'a:b', scopes: ['*'] });
      const victim = new ToolContext({ channel: 'web:a', principal: 'b', scopes: ['*'] });
      expect((await registry.call('t', {}, attacker)).success).toBe(true);
      expect((await registry.call('t', {}, attacker)).success).toBe(true);
      expect((await registry.call('t', {}, attacker)).meta['code']).toBe('RATE_LIMITED');
      expect((await registry.call('t', {}, victim)).success).toBe(true);
    });

    it('returns the limiter reason, retry_after_seconds and audits ERROR:RATE_LIMITED without running the handler', async () => {
      const logger = new RecordingLogger();
      const dispatcher = new EventDispatcher();
      const listener = vi.fn();
      dispatcher.subscribe('tool.*', listener);
      const handler = vi.fn();
      const registry = new ToolRegistry({
        defaultContext: () => ToolContext.cli(),
        logger,
        dispatcher,
        rateLimiter: { consume: () => RateLimitResult.denied('slow down', 30), getUsage: () => 0, reset: () => undefined },
      });
      registry.register(defineTool({ name: 't', description: 'd', handler }));
      const result = await registry.call('t', { q: 'x' });
      expect(result.error).toBe('slow down');
      expect(result.meta).toMatchObject({ code: 'RATE_LIMITED', retry_after_seconds: 30, type: 'error' });
      expect(handler).not.toHaveBeenCalled();
      // No tool.executing / executed / failed: only the governance event of the refusal.
      expect(listener.mock.calls.map(([name]) => name)).toEqual(['tool.denied']);
      expect(listener.mock.calls[0]![1].event).toMatchObject({ name: 't', reason: 'rate_limited', message: 'slow down' });
      const line = logger.messages('warn').find((message) => message.includes('ERROR:RATE_LIMITED'));
      expect(line).toMatch(/^\[ToolAudit\] [0-9a-f]{32} \| cli \| t \| cli \| \d+ms \| ERROR:RATE_LIMITED \| args=\{"q":"x"\}$/);
    });

    it('falls back to "Rate limit exceeded" when the limiter gives no reason', async () => {
      const registry = new ToolRegistry({
        defaultContext: () => ToolContext.cli(),
        rateLimiter: { consume: () => new RateLimitResult(false, null, null, null), getUsage: () => 0, reset: () => undefined },
      });
      registry.register(tool('t'));
      expect((await registry.call('t')).error).toBe('Rate limit exceeded');
    });

    it('refuses the call (fail-closed, STORE_UNAVAILABLE naming the rate limiter) when the limiter throws or rejects', async () => {
      const handler = vi.fn();
      for (const consume of [
        () => {
          throw new Error('redis down');
        },
        () => Promise.reject(new Error('redis down')),
      ]) {
        const registry = new ToolRegistry({
          defaultContext: () => ToolContext.cli(),
          rateLimiter: { consume, getUsage: () => 0, reset: () => undefined } as RateLimiter,
        });
        registry.register(defineTool({ name: 't', description: 'd', handler }));
        const result = await registry.call('t');
        expect(result.meta).toMatchObject({ code: 'STORE_UNAVAILABLE', store: 'rate_limit' });
        expect(result.error).toContain('rate limiter failed');
      }
      expect(handler).not.toHaveBeenCalled();
    });

    it('charges plan-mode calls and confirmation requests too', async () => {
      const limiter = new InMemoryRateLimiter();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), rateLimiter: limiter });
      registry.register(tool('confirm_me', { requiresConfirmation: true }));
      await registry.call('confirm_me', {}, ToolContext.cli().asPlan());
      await registry.call('confirm_me', {}, ToolContext.cli());
      expect(limiter.getUsage('cli:cli:confirm_me')).toBe(2);
    });
  });
});
