import { InterceptionSlot, type Logger } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { EventDispatcher } from '../../src/dispatcher/event-dispatcher.js';
import { trackUnhandledRejections } from '../properties/unhandled-rejections.js';

// Found by packages/tool-runtime/test/properties/fault-injection.test.ts: the dispatcher reported
// a failing listener to a logger whose `error` is async and rejects (a log shipper offline), and
// dropped the returned promise. dispatch() resolved, but the rejection went unhandled — which, by
// Node's default, ends the host process.
function rejectingLogger(): Logger {
  const write = (() => Promise.reject(new Error('log shipper offline'))) as () => void;
  return { debug: write, info: write, warn: write, error: write };
}

describe('EventDispatcher', () => {
  const unhandledRejections = trackUnhandledRejections();

  describe('dispatch (regression: a logger that returns rejected promises)', () => {
    it('leaves no unhandled rejection when it reports a throwing and a rejecting listener', async () => {
      const dispatcher = new EventDispatcher({ logger: rejectingLogger() });
      const ran: string[] = [];
      dispatcher.subscribe(
        'tool.executing',
        () => {
          ran.push('throws');
          throw new Error('listener failed');
        },
        10,
      );
      dispatcher.subscribe(
        'tool.executing',
        () => {
          ran.push('rejects');
          return Promise.reject(new Error('listener failed'));
        },
        5,
      );
      dispatcher.subscribe('tool.executing', () => {
        ran.push('last');
      });
      await dispatcher.dispatch('tool.executing', { slot: new InterceptionSlot() });
      expect(ran).toEqual(['throws', 'rejects', 'last']);
      expect(await unhandledRejections()).toEqual([]);
    });
  });
});
