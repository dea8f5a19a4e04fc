import { ToolContext, defineTool, type ConfirmationStore } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { ConfirmationTokenStore } from '../../src/confirmation/confirmation-token-store.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';

// Found by test/properties/fault-injection.test.ts: only `null` counted as "no such token", so a
// store answering a forged token with `undefined` (the usual `map.get(token)?.args` miss) — or any
// other non-object — let the call through and ran the handler with that value as its arguments.
describe('ToolRegistry', () => {
  describe('call (regression: a store that answers a forged token with a non-object)', () => {
    it.each([
      ['undefined', undefined],
      ['a string', 'args'],
      ['a number', 1],
      ['true', true],
      ['an array', [{ id: 1 }]],
    ])('refuses as an invalid token and runs nothing when consume() returns %s', async (_label, answer) => {
      const tokens = new ConfirmationTokenStore();
      const store: ConfirmationStore = {
        create: (...args) => tokens.create(...args),
        consume: () => answer as unknown as null,
        isValid: () => false,
      };
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), confirmationStore: store });
      let runs = 0;
      registry.register(
        defineTool({
          name: 'wipe_disk',
          description: 'Needs a confirmation',
          requiresConfirmation: true,
          handler: () => {
            runs += 1;
            return 'wiped';
          },
        }),
      );
      const result = await registry.call('wipe_disk', {}, ToolContext.cli(), { confirmToken: 'forged' });
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('VALIDATION_ERROR');
      expect(result.error).toBe('Invalid or expired confirmation token');
      expect(runs).toBe(0);
    });
  });
});
