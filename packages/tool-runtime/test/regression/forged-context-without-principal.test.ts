import { ToolContext, defineTool } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/registry/tool-registry.js';

// Found while generating contexts for test/properties/call-hostile-input.test.ts: require_auth
// denied only a principal that was exactly null or '', so a context that is a ToolContext by
// prototype but was never constructed (its principal undefined, or not a string) passed as
// authenticated on web, mcp and unregistered channels, and the tool ran.
function forgedContext(channel: string, principal: unknown): ToolContext {
  const fields: PropertyDescriptorMap = {
    channel: { value: channel, enumerable: true },
    scopes: { value: Object.freeze([]), enumerable: true },
    requestId: { value: 'forged-request', enumerable: true },
    mode: { value: 'execute', enumerable: true },
  };
  if (principal !== undefined) fields['principal'] = { value: principal, enumerable: true };
  return Object.create(ToolContext.prototype, fields) as ToolContext;
}

describe('ToolRegistry', () => {
  describe('call (regression: a forged context without a string principal)', () => {
    it.each([
      ['web', undefined],
      ['mcp', undefined],
      ['kiosk', undefined],
      ['web', 42],
      ['mcp', { id: 'admin' }],
    ])('refuses with FORBIDDEN on %s when the principal is %j', async (channel, principal) => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      let runs = 0;
      registry.register(
        defineTool({
          name: 'read_inbox',
          description: 'Needs an authenticated caller on web and mcp',
          handler: () => {
            runs += 1;
            return 'mail';
          },
        }),
      );
      const result = await registry.call('read_inbox', {}, forgedContext(channel, principal));
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('FORBIDDEN');
      expect(result.error).toContain('requires an authenticated principal');
      expect(runs).toBe(0);
    });
  });
});
