import { InterceptionSlot, type Logger } from '@milpa/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventDispatcher } from '../../src/dispatcher/event-dispatcher.js';
import { trackUnhandledRejections } from './unhandled-rejections.js';

type Behaviour =
  | 'returns'
  | 'resolves'
  | 'throws_error'
  | 'throws_string'
  | 'throws_undefined'
  | 'throws_unprintable'
  | 'rejects'
  | 'rejects_unprintable'
  | 'stops'
  | 'stops_then_throws'
  | 'short_circuits';
const FAILING: ReadonlySet<Behaviour> = new Set([
  'throws_error',
  'throws_string',
  'throws_undefined',
  'throws_unprintable',
  'rejects',
  'rejects_unprintable',
  'stops_then_throws',
]);
const STOPPING: ReadonlySet<Behaviour> = new Set(['stops', 'stops_then_throws', 'short_circuits']);

function unprintable(): object {
  return Object.create(null, {
    message: {
      get(): string {
        throw new Error('the message getter throws');
      },
    },
  }) as object;
}

/** Runs one behaviour: returns, resolves, throws or rejects (with non-Error values too), or stops the slot. */
function act(behaviour: Behaviour, slot: InterceptionSlot): void | Promise<void> {
  switch (behaviour) {
    case 'returns':
      return undefined;
    case 'resolves':
      return Promise.resolve();
    case 'throws_error':
      throw new Error('listener failed');
    case 'throws_string':
      // Non-Error throws are the point.
      throw 'listener failed';
    case 'throws_undefined':
      throw undefined;
    case 'throws_unprintable':
      throw unprintable();
    case 'rejects':
      return Promise.reject(new Error('listener failed'));
    case 'rejects_unprintable':
      // A non-Error rejection is the point.
      return Promise.reject(unprintable());
    case 'stops':
      slot.stop();
      return undefined;
    case 'stops_then_throws':
      slot.stop();
      throw new Error('stopped, then failed');
    case 'short_circuits':
      slot.shortCircuit({ cached: true });
      return Promise.resolve();
  }
}

type LoggerKind = 'recording' | 'throwing' | 'rejecting';

function loggerOf(kind: LoggerKind, lines: string[]): Logger {
  const write = ((_context: unknown, message: string) => {
    if (kind === 'throwing') throw new Error('logger down');
    if (kind === 'rejecting') return Promise.reject(new Error('logger down'));
    lines.push(message);
    return undefined;
  }) as Logger['error'];
  return { debug: write, info: write, warn: write, error: write };
}

const listener = fc.record({
  priority: fc.integer({ min: -2, max: 2 }),
  wildcard: fc.boolean(),
  behaviour: fc.constantFrom<Behaviour>(
    'returns',
    'resolves',
    'throws_error',
    'throws_string',
    'throws_undefined',
    'throws_unprintable',
    'rejects',
    'rejects_unprintable',
    'stops',
    'stops_then_throws',
    'short_circuits',
  ),
});

describe('EventDispatcher', () => {
  const unhandledRejections = trackUnhandledRejections();

  describe('dispatch (property: listener isolation)', () => {
    it('resolves, runs listeners in order up to the first that stops the slot, and reports each failure once', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(listener, { minLength: 1, maxLength: 12 }),
          fc.constantFrom<LoggerKind>('recording', 'throwing', 'rejecting'),
          async (specs, loggerKind) => {
            const lines: string[] = [];
            const dispatcher = new EventDispatcher({ logger: loggerOf(loggerKind, lines) });
            const ran: number[] = [];
            specs.forEach((spec, index) => {
              dispatcher.subscribe(
                spec.wildcard ? 'tool.*' : 'tool.executing',
                (_name, payload) => {
                  ran.push(index);
                  return act(spec.behaviour, payload['slot'] as InterceptionSlot);
                },
                spec.priority,
              );
            });
            const slot = new InterceptionSlot();
            await dispatcher.dispatch('tool.executing', { slot });

            const order = specs
              .map((spec, index) => ({ ...spec, index }))
              .sort(
                (left, right) =>
                  right.priority - left.priority || Number(left.wildcard) - Number(right.wildcard) || left.index - right.index,
              );
            const firstStop = order.findIndex((spec) => STOPPING.has(spec.behaviour));
            const expectedRun = (firstStop === -1 ? order : order.slice(0, firstStop + 1)).map((spec) => spec.index);
            expect(ran).toEqual(expectedRun);
            expect(slot.isStopped()).toBe(firstStop !== -1);
            const failures = expectedRun.filter((index) => FAILING.has(specs[index]!.behaviour)).length;
            if (loggerKind === 'recording') {
              expect(lines).toHaveLength(failures);
              for (const line of lines) expect(line.startsWith('[EventDispatcher] Handler error for tool.executing: ')).toBe(true);
            }
          },
        ),
        { numRuns: 500 },
      );
      expect(await unhandledRejections()).toEqual([]);
    });
  });
});
