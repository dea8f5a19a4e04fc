import { EventDispatcher } from '@milpa/events';
import { RateLimitResult, ToolContext, Type, defineTool, type RateLimiter } from '@milpa/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { ToolRegistry } from './tool-registry.js';

const denyingLimiter = (): RateLimiter & { consume: ReturnType<typeof vi.fn> } => ({
  consume: vi.fn(() => RateLimitResult.denied('nope', 7)),
  getUsage: () => 0,
  reset: () => undefined,
});

describe('ToolRegistry', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('call: resolve', () => {
    it('runs under ToolContext.cli() when no context is given', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(defineTool({ name: 'whoami', description: 'd', handler: (_args, { context }) => context.channel }));
      const result = await registry.call('whoami', {});
      expect(result.data).toBe('cli');
      expect(result.meta).toMatchObject({ channel: 'cli', principal: 'cli' });
    });

    it('returns TOOL_NOT_FOUND with standard meta and dispatches nothing when the tool is unknown', async () => {
      const dispatcher = new EventDispatcher();
      const listener = vi.fn();
      dispatcher.subscribe('tool.*', listener);
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher });
      const context = ToolContext.mcp('req-1', 'user:1', ['*']);
      const result = await registry.call('missing_tool', { garbage: [1, 2, { deep: true }] }, context);
      expect(result.success).toBe(false);
      expect(result.error).toBe('Tool not found: missing_tool');
      expect(result.meta).toEqual({
        tool: 'missing_tool',
        took_ms: 0,
        request_id: 'req-1',
        channel: 'mcp',
        principal: 'user:1',
        code: 'TOOL_NOT_FOUND',
        type: 'error',
      });
      expect(listener).not.toHaveBeenCalled();
    });

    it('returns VALIDATION_ERROR instead of rejecting when the context is not a valid context', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(defineTool({ name: 't', description: 'd', handler: () => 1 }));
      const result = await registry.call('t', {}, { channel: 'cli', mode: 'dry-run' } as never);
      expect(result.meta['code']).toBe('VALIDATION_ERROR');
      expect(result.error).toContain('Invalid context');
    });

    it('accepts a plain-object context and validates it like a ToolContext', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(defineTool({ name: 't', description: 'd', handler: (_args, { context }) => context.principal }));
      const result = await registry.call('t', {}, { principal: 'p', channel: 'cli', scopes: ['*'] } as never);
      expect(result.data).toBe('p');
    });
  });

  describe('call: stage order', () => {
    it('reports FORBIDDEN, not VALIDATION_ERROR, when both validation and authorization would fail', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(
        defineTool({
          name: 'needs_name',
          description: 'd',
          scopes: ['admin'],
          input: Type.Object({ name: Type.String() }),
          handler: () => 1,
        }),
      );
      const result = await registry.call('needs_name', {}, ToolContext.web('u', []));
      expect(result.meta['code']).toBe('FORBIDDEN');
    });

    it('reports FORBIDDEN and never consults the limiter when authorization fails', async () => {
      const limiter = denyingLimiter();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), rateLimiter: limiter });
      registry.register(defineTool({ name: 'admin_only', description: 'd', scopes: ['admin'], handler: () => 1 }));
      const result = await registry.call('admin_only', {}, ToolContext.web('u', []));
      expect(result.meta['code']).toBe('FORBIDDEN');
      expect(limiter.consume).not.toHaveBeenCalled();
    });

    it('reports RATE_LIMITED before asking for confirmation when the limiter denies', async () => {
      const limiter = denyingLimiter();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), rateLimiter: limiter });
      registry.register(defineTool({ name: 'confirm_me', description: 'd', requiresConfirmation: true, handler: () => 1 }));
      const result = await registry.call('confirm_me', {}, ToolContext.telegram(42, 'user:1'));
      expect(result.meta['code']).toBe('RATE_LIMITED');
      expect(result.getConfirmToken()).toBeNull();
    });

    it('runs the tool.executing listener, then the handler, then the tool.executed listener', async () => {
      const steps: string[] = [];
      const dispatcher = new EventDispatcher();
      dispatcher.subscribe('tool.executing', () => {
        steps.push('executing');
      });
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher });
      dispatcher.subscribe('tool.executed', () => {
        steps.push('executed');
      });
      registry.register(defineTool({ name: 'run', description: 'd', handler: () => steps.push('handler') }));
      await registry.call('run');
      expect(steps).toEqual(['executing', 'handler', 'executed']);
    });
  });

  describe('call: standard meta', () => {
    it('stamps tool, took_ms, request_id, channel and principal on a bare-value result', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(
        defineTool({
          name: 'slow_add',
          description: 'd',
          handler: async () => {
            await new Promise((resolve) => setTimeout(resolve, 150));
            return 8;
          },
        }),
      );
      const pending = registry.call('slow_add', {}, ToolContext.telegram(99, 'user:789'));
      await vi.advanceTimersByTimeAsync(150);
      const result = await pending;
      expect(result.data).toBe(8);
      expect(result.meta['tool']).toBe('slow_add');
      expect(result.meta['channel']).toBe('telegram');
      expect(result.meta['principal']).toBe('user:789');
      expect(result.meta['took_ms']).toBeGreaterThanOrEqual(150);
      expect(result.meta['request_id']).toMatch(/^[0-9a-f]{32}$/);
    });

    it('gives every pipeline error standard meta plus code and type "error"', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), rateLimiter: denyingLimiter() });
      registry.register(defineTool({ name: 'strict', description: 'd', input: Type.Object({ n: Type.Integer() }), handler: () => 1 }));
      registry.register(defineTool({ name: 'scoped', description: 'd', scopes: ['s'], handler: () => 1 }));
      registry.register(defineTool({ name: 'limited', description: 'd', handler: () => 1 }));
      registry.register(
        defineTool({
          name: 'boom',
          description: 'd',
          handler: () => {
            throw new Error('x');
          },
        }),
      );
      const context = new ToolContext({ principal: 'p', channel: 'web', requestId: 'r-9' });
      const results = [
        await registry.call('nope', {}, context),
        await registry.call('strict', {}, context),
        await registry.call('scoped', {}, context),
        await registry.call('limited', {}, context),
      ];
      registry.setRateLimiter(null);
      results.push(await registry.call('boom', {}, context));
      for (const result of results) {
        expect(result.meta).toMatchObject({ request_id: 'r-9', channel: 'web', principal: 'p', type: 'error' });
        expect(typeof result.meta['took_ms']).toBe('number');
        expect(typeof result.meta['tool']).toBe('string');
      }
      expect(results.map((result) => result.meta['code'])).toEqual([
        'TOOL_NOT_FOUND',
        'VALIDATION_ERROR',
        'FORBIDDEN',
        'RATE_LIMITED',
        'INTERNAL_ERROR',
      ]);
    });
  });

  describe('call: never rejects', () => {
    it('resolves to a result when the logger throws on every line', async () => {
      const throwing = () => {
        throw new Error('logger down');
      };
      const registry = new ToolRegistry({
        defaultContext: () => ToolContext.cli(),
        logger: { debug: throwing, info: throwing, warn: throwing, error: throwing },
      });
      registry.register(defineTool({ name: 'ok', description: 'd', handler: () => 1 }));
      registry.register(
        defineTool({
          name: 'boom',
          description: 'd',
          handler: () => {
            throw new Error('x');
          },
        }),
      );
      await expect(registry.call('ok')).resolves.toMatchObject({ success: true, data: 1 });
      await expect(registry.call('boom')).resolves.toMatchObject({ success: false });
      await expect(registry.call('missing')).resolves.toMatchObject({ success: false });
      await expect(registry.call('ok', {}, new ToolContext({ channel: 'mystery' }))).resolves.toMatchObject({ success: false });
    });

    it('resolves to VALIDATION_ERROR when args are not an object', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(defineTool({ name: 't', description: 'd', handler: () => 1 }));
      for (const [args, type] of [
        [null, 'null'],
        [[1], 'array'],
        ['x', 'string'],
        [3, 'integer'],
      ] as const) {
        const result = await registry.call('t', args);
        expect(result.meta['code']).toBe('VALIDATION_ERROR');
        expect(result.error).toBe(`Arguments must be an object, got ${type}`);
      }
    });

    it('logs the failure at warn level on the registry logger', async () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger });
      registry.register(defineTool({ name: 't', description: 'd', handler: () => 1 }));
      await registry.call('t', null);
      expect(logger.matching('VALIDATION_FAILED')).toHaveLength(1);
    });
  });
});
