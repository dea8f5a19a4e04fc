import { ToolContext, ToolResult, Type, defineTool } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { ToolRegistry } from './tool-registry.js';
import type { ToolRegistryOptions } from './tool-registry-options.js';

const cli = () => ToolContext.cli();

function searchRegistry(options: ToolRegistryOptions = {}) {
  const logger = new RecordingLogger();
  const registry = new ToolRegistry({ logger, ...options });
  const handler = vi.fn((args: Record<string, unknown>) => args);
  registry.register(
    defineTool({
      name: 'search',
      description: 'Search notes',
      input: Type.Object(
        { query: Type.String(), status: Type.Optional(Type.String()), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })) },
        { additionalProperties: false },
      ),
      clamps: { limit: [1, 10] },
      handler,
    }),
  );
  return { registry, handler, logger };
}

describe('ToolRegistry', () => {
  describe('call: argument tidying', () => {
    it('is off by default: a wildcard reaches the handler and a numeric string fails validation', async () => {
      const { registry, handler } = searchRegistry();
      await registry.call('search', { query: 'x', status: '*' }, cli());
      expect(handler).toHaveBeenCalledWith({ query: 'x', status: '*' }, expect.anything());
      expect((await registry.call('search', { query: 'x', limit: '5' }, cli())).meta['code']).toBe('VALIDATION_ERROR');
    });

    it('tidies before clamps and validation when on, and lists every change in meta.tidied', async () => {
      const { registry, handler } = searchRegistry({ tidyArguments: true });
      const result = await registry.call('search', { query: 'x', status: '%', limit: '15' }, cli());
      expect(result.success).toBe(true);
      // '15' became 15 (tidy), then the clamp (max 10) applied before validation.
      expect(handler).toHaveBeenCalledWith({ query: 'x', limit: 10 }, expect.anything());
      expect(result.meta['tidied']).toEqual([
        { field: 'status', action: 'dropped' },
        { field: 'limit', action: 'converted' },
      ]);
    });

    it('passes unknown arguments to validation, and the refusal carries no meta.tidied', async () => {
      const { registry } = searchRegistry({ tidyArguments: true });
      const result = await registry.call('search', { query: 'x', status: '', extra: '*' }, cli());
      expect(result.meta['code']).toBe('VALIDATION_ERROR');
      expect(result.meta).not.toHaveProperty('tidied');
    });

    it('adds no meta.tidied when nothing changed', async () => {
      const { registry } = searchRegistry({ tidyArguments: true });
      expect((await registry.call('search', { query: 'x' }, cli())).meta).not.toHaveProperty('tidied');
    });

    it('never moves a required id to the bound: the call is refused, no other record is touched', async () => {
      const handler = vi.fn(() => 'deleted');
      const registry = new ToolRegistry({ tidyArguments: true });
      registry.register(
        defineTool({
          name: 'delete_note',
          description: 'd',
          input: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
          mutating: true,
          handler,
        }),
      );
      const result = await registry.call('delete_note', { id: '0' }, cli());
      expect(result.meta['code']).toBe('VALIDATION_ERROR');
      expect(handler).not.toHaveBeenCalled();
    });

    it('shows the tidy step in inspect, active only when on', () => {
      expect(searchRegistry().registry.inspect('search', cli())?.getStep('tidy').presence).toBe('skipped');
      expect(searchRegistry({ tidyArguments: true }).registry.inspect('search', cli())?.getStep('tidy').presence).toBe('active');
    });

    it('refuses a non-boolean tidyArguments at construction', () => {
      expect(() => new ToolRegistry({ tidyArguments: 'yes' as unknown as boolean })).toThrow(/tidyArguments/);
    });
  });

  describe('call: result cap', () => {
    function echo(options: ToolRegistryOptions = {}) {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ logger, ...options });
      registry.register(
        defineTool({
          name: 'dump',
          description: 'd',
          input: Type.Object({ size: Type.Integer() }),
          handler: ({ size }) => 'a'.repeat(size),
        }),
      );
      registry.register(
        defineTool({
          name: 'rows',
          description: 'd',
          input: Type.Object({ count: Type.Integer() }),
          handler: ({ count }) => ({ rows: Array.from({ length: count }, (_, id) => ({ id, text: 'row text' })) }),
        }),
      );
      registry.register(
        defineTool({ name: 'fails', description: 'd', handler: () => ToolResult.failure('NOT_FOUND', 'b'.repeat(20_000)) }),
      );
      return { registry, logger };
    }

    it('cuts a result over 10,000 characters by default, with the note and meta.truncated', async () => {
      const { registry, logger } = echo();
      const result = await registry.call('dump', { size: 12_000 }, cli());
      expect(typeof result.data).toBe('string');
      // The note counts against the cap: the data keeps what fits beside it.
      expect((result.data as string).length).toBeLessThanOrEqual(10_000);
      expect((result.data as string).startsWith(`${'a'.repeat(9_800)}`)).toBe(true);
      expect(result.data as string).toMatch(/a\n\n\[Result truncated: it was 12000 characters/);
      expect(result.data as string).toContain('Narrow the request, or page with offset');
      expect(result.meta).toMatchObject({ truncated: true, original_chars: 12_000, max_chars: 10_000, tool: 'dump' });
      const record = logger.auditRecords().find((entry) => entry['outcome'] === 'ok');
      expect(record).toMatchObject({
        output_size: 12_000,
        truncated: true,
        original_sizes: { data: 12_000, message: 0, error: 0, meta: 0 },
      });
    });

    it('leaves a result of exactly the cap alone', async () => {
      const result = await echo().registry.call('dump', { size: 10_000 }, cli());
      expect(result.data).toBe('a'.repeat(10_000));
      expect(result.meta).not.toHaveProperty('truncated');
    });

    it('cuts structured data as JSON text', async () => {
      const result = await echo({ maxResultTokens: 100 }).registry.call('rows', { count: 50 }, cli());
      expect(result.meta).toMatchObject({ truncated: true, max_chars: 400 });
      expect((result.data as string).startsWith('{"rows":[{"id":0')).toBe(true);
    });

    it('is off with maxResultTokens 0', async () => {
      const result = await echo({ maxResultTokens: 0 }).registry.call('dump', { size: 50_000 }, cli());
      expect(result.data).toHaveLength(50_000);
      expect(echo({ maxResultTokens: 0 }).registry.inspect('dump', cli())?.getStep('cap_result').presence).toBe('skipped');
    });

    it('cuts the error of a failure too, and leaves a short refusal alone', async () => {
      const { registry } = echo({ maxResultTokens: 100 });
      const failed = await registry.call('fails', {}, cli());
      expect((failed.error as string).length).toBeLessThanOrEqual(400);
      expect(failed.error).toMatch(/^b+\n\n\[Result truncated: it was 20000 characters, over the limit of 400\./);
      expect(failed.meta).toMatchObject({ code: 'NOT_FOUND', type: 'error', truncated: true });
      expect((await registry.call('dump', { size: 'x' }, cli())).meta).not.toHaveProperty('truncated');
    });

    it('refuses a negative or fractional maxResultTokens at construction', () => {
      expect(() => new ToolRegistry({ maxResultTokens: -1 })).toThrow(/maxResultTokens/);
      expect(() => new ToolRegistry({ maxResultTokens: 2.5 })).toThrow(/maxResultTokens/);
    });
  });
});
