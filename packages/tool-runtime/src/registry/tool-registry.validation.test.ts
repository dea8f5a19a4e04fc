import { EventDispatcher } from '@milpa/events';
import { ToolContext, Type, defineTool } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { ToolRegistry } from './tool-registry.js';

describe('ToolRegistry', () => {
  describe('call: validate', () => {
    it('skips validation entirely and passes any args when the input schema is empty', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const handler = vi.fn((args: unknown) => args);
      registry.register({ ...defineTool({ name: 'anything', description: 'd', handler }), inputSchema: {} });
      const result = await registry.call('anything', { foo: 'bar', n: [1] });
      expect(result.data).toEqual({ foo: 'bar', n: [1] });
    });

    it('returns VALIDATION_ERROR "Missing required field: name" and runs nothing after it', async () => {
      const logger = new RecordingLogger();
      const dispatcher = new EventDispatcher();
      const listener = vi.fn();
      dispatcher.subscribe('tool.*', listener);
      const handler = vi.fn();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger, dispatcher });
      registry.register(
        defineTool({ name: 'greet', description: 'd', scopes: ['x'], input: Type.Object({ name: Type.String() }), handler }),
      );
      const result = await registry.call('greet', {}, ToolContext.web('u', ['x']));
      expect(result.meta['code']).toBe('VALIDATION_ERROR');
      expect(result.error).toContain('Missing required field: name');
      expect(result.meta['errors']).toEqual([{ path: 'name', message: 'Missing required field: name' }]);
      expect(handler).not.toHaveBeenCalled();
      expect(listener).not.toHaveBeenCalled();
      expect(logger.messages('warn').some((line) => line.startsWith('[ToolAudit] VALIDATION_FAILED |'))).toBe(true);
      expect(logger.matching('AUTH_DENIED')).toHaveLength(0);
    });

    it('accepts a present null for a required nullable field', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(
        defineTool({
          name: 'n',
          description: 'd',
          input: Type.Object({ name: Type.Union([Type.String(), Type.Null()]) }),
          handler: ({ name }) => name,
        }),
      );
      expect((await registry.call('n', { name: null })).success).toBe(true);
    });

    it('names the field and the types in the plain message form', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(defineTool({ name: 't', description: 'd', input: Type.Object({ name: Type.String() }), handler: () => 1 }));
      expect((await registry.call('t', { name: 123 })).error).toBe('name: Expected string, got integer');
    });

    it('rejects unknown properties when additionalProperties is false and passes them through otherwise', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(
        defineTool({ name: 'strict', description: 'd', input: Type.Object({}, { additionalProperties: false }), handler: (args) => args }),
      );
      registry.register(defineTool({ name: 'open', description: 'd', input: Type.Object({}), handler: (args) => args }));
      expect((await registry.call('strict', { extra: 1 })).error).toBe('Unknown property: extra');
      expect((await registry.call('open', { extra: 1 })).data).toEqual({ extra: 1 });
    });

    it('validates nested objects and arrays and names nested fields by path in message and meta.errors', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(
        defineTool({
          name: 'nested',
          description: 'd',
          input: Type.Object({
            user: Type.Object({ email: Type.String({ format: 'email' }), age: Type.Integer({ minimum: 18 }) }),
            tags: Type.Array(Type.String()),
          }),
          handler: () => 1,
        }),
      );
      const result = await registry.call('nested', { user: { email: 'not-an-email', age: 5 }, tags: ['ok', 7] });
      expect(result.meta['code']).toBe('VALIDATION_ERROR');
      const errors = result.meta['errors'] as { path: string; message: string }[];
      expect(errors.map((error) => error.path).sort()).toEqual(['tags[1]', 'user.age', 'user.email']);
      expect(result.error).toContain('user.age: Value too small (min: 18)');
      expect(result.error).toContain('tags[1]: Expected string, got integer');
    });
  });

  describe('call: clamp', () => {
    const pager = () =>
      defineTool({
        name: 'list_items',
        description: 'd',
        input: Type.Object({ page: Type.Integer() }),
        clamps: { page: { min: 1, max: 100 } },
        handler: ({ page }) => page,
      });

    it('bounds numbers to the clamp before the handler sees them', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(pager());
      expect((await registry.call('list_items', { page: 500 })).data).toBe(100);
      expect((await registry.call('list_items', { page: -5 })).data).toBe(1);
      expect((await registry.call('list_items', { page: 50 })).data).toBe(50);
    });

    it('clamps before validating, so a clamped field is never rejected by a matching schema bound', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(
        defineTool({
          name: 'bounded',
          description: 'd',
          input: Type.Object({ page: Type.Integer({ minimum: 1, maximum: 100 }), note: Type.Optional(Type.String({ maxLength: 5 })) }),
          clamps: { page: [1, 100], note: { maxLength: 5 } },
          handler: (args) => args,
        }),
      );
      const result = await registry.call('bounded', { page: 500, note: 'far too long' });
      expect(result.success).toBe(true);
      expect(result.data).toEqual({ page: 100, note: 'far t' });
    });

    it('still rejects with the schema bound when the clamp allows more than the schema', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(
        defineTool({
          name: 'loose_clamp',
          description: 'd',
          input: Type.Object({ page: Type.Integer({ maximum: 100 }) }),
          clamps: { page: [1, 1000] },
          handler: () => 1,
        }),
      );
      const result = await registry.call('loose_clamp', { page: 500 });
      expect(result.error).toBe('page: Value too large (max: 100)');
    });

    it('lets every later stage see the clamped args: plan, confirmation snapshot, events and handler', async () => {
      const dispatcher = new EventDispatcher();
      const seen: unknown[] = [];
      dispatcher.subscribe('tool.executing', (_name, payload) => {
        seen.push((payload['event'] as { args: unknown }).args);
      });
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher });
      registry.register({ ...pager(), requiresConfirmation: true, name: 'clamped_confirm' });
      const plan = await registry.call('clamped_confirm', { page: 999 }, ToolContext.cli().asPlan());
      expect((plan.data as { plan: { args: unknown } }).plan.args).toEqual({ page: 100 });
      const first = await registry.call('clamped_confirm', { page: 999 });
      expect(first.message).toBe('clamped_confirm(page=100)');
      const second = await registry.call('clamped_confirm', { page: 3 }, undefined, { confirmToken: first.getConfirmToken() as string });
      expect(second.data).toBe(100);
      expect(seen).toEqual([{ page: 100 }]);
    });
  });
});
