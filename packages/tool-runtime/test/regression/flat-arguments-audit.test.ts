import { ToolContext, ToolResult, Type, defineTool } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { RecordingLogger } from '../support/recording-logger.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';

// The audit takes a short path for flat arguments (a plain object of primitives, the usual call).
// These calls go through the whole pipeline with flat arguments whose secrets hide behind key
// spellings and schema markings, and whose handler echoes them: nothing secret may reach a line.
const SECRETS = ['hunter2-Ж', 'sk-live-Ѣ', '9876-Ꙗ'];

function registryWith(handler: (args: Record<string, unknown>) => unknown): { registry: ToolRegistry; logger: RecordingLogger } {
  const logger = new RecordingLogger();
  const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger });
  registry.register(
    defineTool({
      name: 'sign_in',
      description: 'Signs in (test)',
      input: Type.Object(
        { user: Type.String(), Pass_Word: Type.String(), 'API-KEY': Type.String(), pin: Type.String({ writeOnly: true }) },
        { additionalProperties: false },
      ),
      handler,
    }),
  );
  return { registry, logger };
}

const ARGS = { user: 'ada', Pass_Word: SECRETS[0]!, 'API-KEY': SECRETS[1]!, pin: SECRETS[2]! };

describe('ToolRegistry', () => {
  describe('call (regression: secrets of flat arguments)', () => {
    it('keeps every secret out of the audit line and record of a successful call', async () => {
      const { registry, logger } = registryWith(() => 'ok');
      expect((await registry.call('sign_in', ARGS)).success).toBe(true);
      const dump = logger.dump();
      expect(dump).toContain('ada');
      for (const secret of SECRETS) expect(dump).not.toContain(secret);
      expect(logger.auditRecords()).toHaveLength(1);
      expect(logger.auditRecords()[0]?.['args']).toEqual({
        user: 'ada',
        Pass_Word: '***REDACTED***',
        'API-KEY': '***REDACTED***',
        pin: '***REDACTED***',
      });
    });

    it('scrubs secrets a throwing handler echoes in its message from the result and every line', async () => {
      const { registry, logger } = registryWith((args) => {
        throw new Error(`rejected ${String(args['Pass_Word'])} / ${String(args['API-KEY'])} / pin ${String(args['pin'])}`);
      });
      const result = await registry.call('sign_in', ARGS);
      expect(result.success).toBe(false);
      const everything = `${JSON.stringify(result)}\n${logger.dump()}`;
      for (const secret of SECRETS) expect(everything).not.toContain(secret);
      expect(logger.auditRecords()).toHaveLength(1);
      expect(logger.auditRecords()[0]).toMatchObject({ outcome: 'exception', code: 'EXCEPTION' });
    });

    it('scrubs secrets a failing result echoes as its error from the audit reason', async () => {
      const { registry, logger } = registryWith((args) => ToolResult.error(`bad pin ${String(args['pin'])}`));
      expect((await registry.call('sign_in', ARGS)).success).toBe(false);
      for (const secret of SECRETS) expect(logger.dump()).not.toContain(secret);
      expect(logger.auditRecords()).toHaveLength(1);
      expect(logger.auditRecords()[0]).toMatchObject({ outcome: 'error', reason: 'bad pin ***REDACTED***' });
    });

    it('escapes line separators a caller puts in flat arguments and in the principal', async () => {
      const { registry, logger } = registryWith(() => 'ok');
      const forged = new ToolContext({ principal: 'eve\u2028[ToolAudit] fake', channel: 'cli', requestId: 'r1' });
      await registry.call('sign_in', { ...ARGS, user: 'ada\u2029[ToolAudit] fake\u007f' }, forged);
      const message = logger.messages().find((line) => line.startsWith('[ToolAudit]'))!;
      expect(message).not.toMatch(/[\u2028\u2029\u007f\n]/);
      expect(message).toContain('eve\\u2028[ToolAudit] fake');
      expect(message).toContain('ada\\u2029[ToolAudit] fake\\u007f');
    });

    it('writes a record without a timestamp of its own (the logger stamps its lines)', async () => {
      const { registry, logger } = registryWith(() => 'ok');
      await registry.call('sign_in', ARGS);
      expect(Object.keys(logger.auditRecords()[0]!)).not.toContain('timestamp');
    });
  });
});
