import { ToolContext, defineTool, type Logger, type PolicyRuleProvider } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { trackUnhandledRejections } from '../properties/unhandled-rejections.js';

// Found by test/properties/fault-injection.test.ts: a logger whose methods are async and reject (a
// log shipper that lost its connection) had its promises dropped by the registry, the audit logger
// and the policy gate. call() still resolved, but every rejection went unhandled — which, by Node's
// default, ends the host process.
function rejectingLogger(): Logger {
  const write = (() => Promise.reject(new Error('log shipper offline'))) as () => void;
  return { debug: write, info: write, warn: write, error: write, isLevelEnabled: () => true };
}

describe('ToolRegistry', () => {
  const unhandledRejections = trackUnhandledRejections();

  describe('call (regression: a logger that returns rejected promises)', () => {
    it('leaves no unhandled rejection on the audit, handler-error, unknown-channel and rule-provider paths', async () => {
      const failingRules: PolicyRuleProvider = {
        findMatchingRule: () => {
          throw new Error('rules offline');
        },
      };
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger: rejectingLogger() });
      const guarded = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger: rejectingLogger(), ruleProvider: failingRules });
      for (const target of [registry, guarded]) {
        target.register(defineTool({ name: 'ok', description: 'Succeeds', handler: () => 'fine' }));
        target.register(
          defineTool({
            name: 'boom',
            description: 'Throws',
            handler: () => {
              throw new Error('handler failed');
            },
          }),
        );
      }

      expect((await registry.call('ok', {}, ToolContext.cli())).success).toBe(true);
      expect((await registry.call('boom', {}, ToolContext.cli())).meta['code']).toBe('INTERNAL_ERROR');
      expect((await registry.call('ok', {}, new ToolContext({ channel: 'kiosk', principal: 'p' }))).success).toBe(true);
      expect((await guarded.call('ok', {}, ToolContext.web('user:1', []))).meta['code']).toBe('FORBIDDEN');
      expect(await unhandledRejections()).toEqual([]);
    });
  });
});
