import { ToolContext, ToolResult, Type, defineTool } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { RecordingLogger } from '../../../test/support/recording-logger.js';
import { REDACTED } from '../../audit/redactor.js';
import { ToolRegistry } from '../../registry/tool-registry.js';

const API_KEY = 'ak-guard-5e1';

function registryWith(check: (args: Readonly<Record<string, unknown>>) => ToolResult | undefined) {
  const logger = new RecordingLogger();
  const registry = new ToolRegistry({
    logger,
    defaultContext: () => ToolContext.cli(),
    stages: [{ before: 'rate_limit', stage: { name: 'key_guard', check: ({ args }) => check(args) } }],
  });
  registry.register(
    defineTool({
      name: 'fetch_report',
      description: 'Fetches a report',
      input: Type.Object({ api_key: Type.String(), items: Type.Array(Type.String()) }),
      handler: () => 'report',
    }),
  );
  return { registry, logger };
}

describe('createHostGuardStage', () => {
  describe('run', () => {
    it("scrubs a host refusal that quotes the caller's secret from its error, message, outcome and audit", async () => {
      const { registry, logger } = registryWith((args) => {
        const error = ToolResult.failure('FORBIDDEN', `key ${String(args['api_key'])} is revoked`);
        return new ToolResult(false, null, `retry without ${String(args['api_key'])}`, error.error, error.meta);
      });
      const result = await registry.call('fetch_report', { api_key: API_KEY, items: [] });
      expect(result.error).toBe(`key ${REDACTED} is revoked`);
      expect(result.message).toBe(`retry without ${REDACTED}`);
      expect(result.getRefusal()?.reason).toBe(`key ${REDACTED} is revoked`);
      expect(JSON.stringify([result.toJSON(), logger.dump()])).not.toContain(API_KEY);
    });

    it('scrubs the fail-closed refusal of a guard that throws quoting a secret nested in an array', async () => {
      const { registry, logger } = registryWith((args) => {
        throw new Error(`cannot parse ${String((args['items'] as string[])[0])} with ${String(args['api_key'])}`);
      });
      const result = await registry.call('fetch_report', { api_key: API_KEY, items: [`echo ${API_KEY}`] });
      expect(result.meta['code']).toBe('INTERNAL_ERROR');
      expect(result.error).toContain(REDACTED);
      expect(JSON.stringify([result.toJSON(), logger.dump()])).not.toContain(API_KEY);
    });
  });
});
