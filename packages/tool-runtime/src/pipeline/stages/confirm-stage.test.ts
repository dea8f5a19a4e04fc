import { ToolContext, defineTool, type ConfirmationStore } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { ToolRegistry } from '../../registry/tool-registry.js';

describe('confirmStage', () => {
  describe('run', () => {
    it('refuses a non-string confirm_token without asking the store', async () => {
      // A store that would redeem anything: the stage alone must keep non-string tokens out.
      const store: ConfirmationStore = {
        create: vi.fn(() => ({ token: 'a'.repeat(32), expiresAt: new Date(0), actionSummary: 's' })),
        consume: vi.fn(() => ({ id: 1 })),
        isValid: vi.fn(() => true),
      };
      const handler = vi.fn(() => 'ran');
      const registry = new ToolRegistry({ confirmationStore: store });
      registry.register(defineTool({ name: 'wipe', description: 'd', requiresConfirmation: true, handler }));
      for (const token of [42, true, { token: 'x' }]) {
        const result = await registry.call('wipe', {}, ToolContext.cli(), { confirmToken: token as unknown as string });
        expect(result.meta['code']).toBe('VALIDATION_ERROR');
        expect(result.error).toBe('Invalid or expired confirmation token');
      }
      expect(store.consume).not.toHaveBeenCalled();
      expect(handler).not.toHaveBeenCalled();
    });

    it('refuses the call fail-closed, naming the confirmation store, when the store throws', async () => {
      const registry = new ToolRegistry({
        confirmationStore: {
          create: () => {
            throw new Error('store down');
          },
          consume: () => null,
          isValid: () => false,
        },
      });
      registry.register(defineTool({ name: 'wipe', description: 'd', requiresConfirmation: true, handler: () => 'ran' }));
      const result = await registry.call('wipe', {}, ToolContext.cli());
      expect(result.meta).toMatchObject({ code: 'STORE_UNAVAILABLE', store: 'confirmation' });
      expect(result.error).toMatch(/^Tool call refused: the confirmation store failed \(fail-closed\)/);
    });
  });

  describe('describe', () => {
    it('describes a confirm step that mutates nothing whichever branch applies', () => {
      const registry = new ToolRegistry({ channelPolicies: { kiosk: { require_confirmation_for_mutating: true } } });
      registry.register(defineTool({ name: 'asks', description: 'd', requiresConfirmation: true, handler: () => null }));
      registry.register(defineTool({ name: 'writes', description: 'd', mutating: true, handler: () => null }));
      registry.register(defineTool({ name: 'reads', description: 'd', handler: () => null }));
      const kiosk = new ToolContext({ channel: 'kiosk', principal: 'k' });
      const steps = [
        registry.inspect('asks', ToolContext.cli())!.getStep('confirm'),
        registry.inspect('writes', kiosk)!.getStep('confirm'),
        registry.inspect('reads', kiosk)!.getStep('confirm'),
        registry.inspect('reads', ToolContext.cli())!.getStep('confirm'),
      ];
      expect(steps.map((step) => [step.presence, step.blocking, step.mutates])).toEqual([
        ['conditional', true, false],
        ['conditional', true, false],
        ['dormant', false, false],
        ['dormant', false, false],
      ]);
    });
  });
});
