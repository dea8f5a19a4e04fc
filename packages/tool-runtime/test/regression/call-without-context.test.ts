// Regression: call() without a context ran as principal 'cli' with scope '*' — full rights by
// omission. It is now refused unless the registry was built with a defaultContext.
import { ToolContext, Type, defineTool } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { RecordingLogger } from '../support/recording-logger.js';

function adminTool(handler = vi.fn(() => 'done')) {
  return defineTool({
    name: 'drop_table',
    description: 'd',
    scopes: ['admin'],
    mutating: true,
    input: Type.Object({ table: Type.String() }),
    handler,
  });
}

describe('ToolRegistry', () => {
  describe('call (regression: no context means full rights)', () => {
    it.each([
      ['undefined', undefined],
      ['null', null],
    ])('refuses with VALIDATION_ERROR and runs nothing when the context is %s', async (_label, context) => {
      const logger = new RecordingLogger();
      const handler = vi.fn(() => 'done');
      const registry = new ToolRegistry({ logger });
      registry.register(adminTool(handler));
      const result = await registry.call('drop_table', { table: 'users' }, context as unknown as ToolContext);
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('VALIDATION_ERROR');
      expect(result.error).toContain('a context is required');
      expect(handler).not.toHaveBeenCalled();
      expect(logger.messages('warn').some((line) => line.includes('a context is required'))).toBe(true);
    });

    it('runs with the defaultContext the registry was built with, and only with it', async () => {
      const handler = vi.fn((_args: unknown, { context }: { context: ToolContext }) => context.principal);
      const registry = new ToolRegistry({
        defaultContext: new ToolContext({ principal: 'script:nightly', channel: 'cli', scopes: ['admin'] }),
      });
      registry.register(adminTool(handler as never));
      const result = await registry.call('drop_table', { table: 'tmp' });
      expect(result.success).toBe(true);
      expect(result.data).toBe('script:nightly');
    });

    it('calls a defaultContext function once per call, so each call has its own request id', async () => {
      const factory = vi.fn(() => ToolContext.cli());
      const registry = new ToolRegistry({ defaultContext: factory });
      registry.register(defineTool({ name: 'ping', description: 'd', handler: () => 'pong' }));
      const first = await registry.call('ping');
      const second = await registry.call('ping');
      expect(factory).toHaveBeenCalledTimes(2);
      expect(first.meta['request_id']).not.toBe(second.meta['request_id']);
    });

    it('refuses a default context that is not a context when the registry is built', () => {
      expect(() => new ToolRegistry({ defaultContext: { channel: 42 } as unknown as ToolContext })).toThrow(/defaultContext/);
    });

    it('keeps an explicit context authoritative over the default', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const handler = vi.fn(() => 'done');
      registry.register(adminTool(handler));
      const result = await registry.call('drop_table', { table: 'users' }, ToolContext.web('u-1', ['notes:read']));
      expect(result.meta['code']).toBe('FORBIDDEN');
      expect(handler).not.toHaveBeenCalled();
    });
  });
});
