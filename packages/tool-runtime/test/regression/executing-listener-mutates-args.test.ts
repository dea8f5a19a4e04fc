// Regression: a tool.executing listener received the live arguments object — the caller's own when
// no clamp applied — so `event.args.amount = 'x'` made the handler run with unvalidated input and
// changed the caller's object. Validated arguments are now a deeply frozen copy.
import { EventDispatcher } from '@milpa/events';
import { ToolContext, Type, defineTool, type ToolExecutingEvent } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { RecordingLogger } from '../support/recording-logger.js';

function refundRegistry(listener: (event: ToolExecutingEvent) => void) {
  const logger = new RecordingLogger();
  const dispatcher = new EventDispatcher({ logger });
  dispatcher.subscribe('tool.executing', (_name, payload) => listener(payload['event'] as ToolExecutingEvent));
  const registry = new ToolRegistry({ dispatcher, logger });
  const handler = vi.fn((args: { amount: number; order: { id: string; lines: number[] } }) => ({
    refunded: args.amount,
    order: args.order.id,
  }));
  registry.register(
    defineTool({
      name: 'refund',
      description: 'Refund an order',
      input: Type.Object({
        amount: Type.Integer({ minimum: 1, maximum: 100 }),
        order: Type.Object({ id: Type.String(), lines: Type.Array(Type.Integer()) }),
      }),
      clamps: {},
      handler,
    }),
  );
  return { registry, handler, logger };
}

describe('ToolRegistry', () => {
  describe('call (regression: a tool.executing listener changes the arguments)', () => {
    it('runs the handler with the validated arguments when a listener assigns to event.args', async () => {
      const { registry, handler, logger } = refundRegistry((event) => {
        (event.args as Record<string, unknown>)['amount'] = 'x';
      });
      const args = { amount: 40, order: { id: 'o-1', lines: [1, 2] } };
      const result = await registry.call('refund', args, ToolContext.cli());
      expect(result.success).toBe(true);
      expect(handler.mock.calls[0]?.[0]).toEqual({ amount: 40, order: { id: 'o-1', lines: [1, 2] } });
      // The listener's write threw (frozen object); the dispatcher isolated and logged it.
      expect(
        logger
          .messages('error')
          .concat(logger.messages('warn'))
          .some((line) => line.includes('tool.executing')),
      ).toBe(true);
    });

    it('keeps nested values and arrays unchangeable by a listener', async () => {
      const { registry, handler } = refundRegistry((event) => {
        const order = event.args['order'] as { id: string; lines: number[] };
        order.id = 'o-999';
      });
      const second = refundRegistry((event) => {
        (event.args['order'] as { lines: number[] }).lines.push(1000);
      });
      await registry.call('refund', { amount: 5, order: { id: 'o-1', lines: [1] } }, ToolContext.cli());
      await second.registry.call('refund', { amount: 5, order: { id: 'o-1', lines: [1] } }, ToolContext.cli());
      expect(handler.mock.calls[0]?.[0]).toEqual({ amount: 5, order: { id: 'o-1', lines: [1] } });
      expect(second.handler.mock.calls[0]?.[0]).toEqual({ amount: 5, order: { id: 'o-1', lines: [1] } });
    });

    it("never changes the caller's own object, at any depth", async () => {
      const { registry } = refundRegistry((event) => {
        try {
          (event.args as Record<string, unknown>)['amount'] = 'x';
        } catch {
          // frozen
        }
      });
      const args = { amount: 40, order: { id: 'o-1', lines: [1, 2] } };
      await registry.call('refund', args, ToolContext.cli());
      expect(args).toEqual({ amount: 40, order: { id: 'o-1', lines: [1, 2] } });
      expect(Object.isFrozen(args)).toBe(false);
      expect(Object.isFrozen(args.order)).toBe(false);
    });

    it('hands the listener and the handler the same frozen object', async () => {
      let seen: unknown;
      const { registry, handler } = refundRegistry((event) => {
        seen = event.args;
      });
      await registry.call('refund', { amount: 3, order: { id: 'o', lines: [] } }, ToolContext.cli());
      expect(handler.mock.calls[0]?.[0]).toBe(seen);
      expect(Object.isFrozen(seen)).toBe(true);
      expect(Object.isFrozen((seen as { order: { lines: unknown } }).order.lines)).toBe(true);
    });

    it('freezes the redeemed arguments of a confirmation replay as well', async () => {
      const dispatcher = new EventDispatcher();
      const seen: unknown[] = [];
      dispatcher.subscribe('tool.executing', (_name, payload) => {
        seen.push((payload['event'] as ToolExecutingEvent).args);
      });
      const registry = new ToolRegistry({ dispatcher });
      const handler = vi.fn();
      registry.register(
        defineTool({
          name: 'wipe',
          description: 'd',
          input: Type.Object({ ids: Type.Array(Type.Integer()) }),
          requiresConfirmation: true,
          handler,
        }),
      );
      const cli = ToolContext.cli();
      const ask = await registry.call('wipe', { ids: [1, 2] }, cli);
      await registry.call('wipe', { ids: [9] }, cli, { confirmToken: ask.getConfirmToken() as string });
      expect(handler.mock.calls[0]?.[0]).toEqual({ ids: [1, 2] });
      expect(Object.isFrozen(seen[0])).toBe(true);
      expect(Object.isFrozen((seen[0] as { ids: unknown }).ids)).toBe(true);
    });
  });
});
