import { ToolContext, ToolResult, defineTool } from '@milpa/core';
import { EventDispatcher } from '@milpa/events';
import { describe, expect, it } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { ToolRegistry } from './tool-registry.js';
import type { ToolRegistryOptions } from './tool-registry-options.js';

const cli = () => ToolContext.cli();

/** A registry capped at 400 characters (100 estimated tokens), as in the reproduction of the hole. */
function capped(options: ToolRegistryOptions = {}) {
  const logger = new RecordingLogger();
  const registry = new ToolRegistry({ logger, maxResultTokens: 100, exposeErrorMessages: true, ...options });
  registry.register(defineTool({ name: 'chatty', description: 'd', handler: () => ToolResult.success({ id: 1 }, 'm'.repeat(200_000)) }));
  registry.register(defineTool({ name: 'broken', description: 'd', handler: () => ToolResult.failure('NOT_FOUND', 'e'.repeat(200_000)) }));
  registry.register(
    defineTool({ name: 'noisy', description: 'd', handler: () => ToolResult.success('ok', null, { trace: 't'.repeat(200_000) }) }),
  );
  registry.register(
    defineTool({
      name: 'throws',
      description: 'd',
      handler: () => {
        throw new Error('x'.repeat(1_000_000));
      },
    }),
  );
  return { registry, logger };
}

/**
 * The serialized result is within the cap (400) plus a fixed overhead: the JSON skeleton and the
 * runtime's own meta entries (tool, took_ms, request_id, channel, principal, code, type and the
 * truncation entries), which take well under 500 characters here.
 */
function expectCapped(result: ToolResult): void {
  expect(result.meta['truncated']).toBe(true);
  expect(JSON.stringify(result).length).toBeLessThanOrEqual(400 + 500);
}

describe('ToolRegistry', () => {
  describe('call: the result cap covers the whole result', () => {
    it('cuts a 200 KB message', async () => {
      const result = await capped().registry.call('chatty', {}, cli());
      expect(result.data).toEqual({ id: 1 });
      expect(result.message).toMatch(/\[Result truncated: it was 200008 characters, over the limit of 400\./);
      expectCapped(result);
    });

    it('cuts a 200 KB failure error and records the original sizes in the audit', async () => {
      const { registry, logger } = capped();
      const result = await registry.call('broken', {}, cli());
      expect(result.getCode()).toBe('NOT_FOUND');
      expectCapped(result);
      const record = logger.auditRecords().find((entry) => entry['tool'] === 'broken');
      expect(record).toMatchObject({ truncated: true, original_sizes: { data: 0, message: 0, error: 200_000, meta: 0 } });
    });

    it('cuts a 200 KB meta string', async () => {
      const result = await capped().registry.call('noisy', {}, cli());
      expect(result.data).toBe('ok');
      expect((result.meta['trace'] as string).length).toBeLessThan(400);
      expect(result.meta).toMatchObject({ tool: 'noisy', channel: 'cli' });
      expectCapped(result);
    });

    it('cuts the text of a handler that threw a 1 MB message, in the result and its outcome', async () => {
      const { registry, logger } = capped();
      const result = await registry.call('throws', {}, cli());
      expect(result.getCode()).toBe('INTERNAL_ERROR');
      expect(result.outcome).toMatchObject({ kind: 'failed', reason: result.error });
      expectCapped(result);
      const record = logger.auditRecords().find((entry) => entry['outcome'] === 'exception');
      expect(record).toMatchObject({ truncated: true, original_sizes: { error: 1_000_000 } });
    });

    it('cuts a thrown 1 MB message also when tool.failed listeners are wired', async () => {
      const dispatcher = new EventDispatcher();
      let seen: string | null = null;
      dispatcher.subscribe('tool.failed', () => {
        seen = 'failed';
      });
      const result = await capped({ dispatcher }).registry.call('throws', {}, cli());
      expect(seen).toBe('failed');
      expectCapped(result);
    });

    it('cuts a huge refusal reason from a host stage', async () => {
      const { registry, logger } = capped({
        stages: [{ before: 'rules', stage: { name: 'wall', check: () => ToolResult.failure('FORBIDDEN', 'r'.repeat(300_000)) } }],
      });
      const result = await registry.call('chatty', {}, cli());
      expect(result.getRefusal()).toMatchObject({ code: 'FORBIDDEN' });
      expect(result.getRefusal()?.reason).toBe(result.error);
      expectCapped(result);
      const record = logger.auditRecords().find((entry) => entry['outcome'] === 'refused');
      expect(record).toMatchObject({ truncated: true, original_sizes: { error: 300_000 } });
    });

    it('cuts the text of a collaborator that failed with a huge message (fail-closed refusal)', async () => {
      const { registry } = capped({
        stages: [
          {
            before: 'rules',
            stage: {
              name: 'crash',
              check: () => {
                throw new Error('c'.repeat(500_000));
              },
            },
          },
        ],
      });
      expectCapped(await registry.call('chatty', {}, cli()));
    });

    it('leaves a small result untouched, without cap meta', async () => {
      const { registry } = capped();
      registry.register(defineTool({ name: 'tiny', description: 'd', handler: () => ToolResult.success({ id: 2 }, 'done') }));
      const result = await registry.call('tiny', {}, cli());
      expect(result.message).toBe('done');
      expect(result.meta).not.toHaveProperty('truncated');
    });
  });
});
