import {
  InterceptionSlot,
  MilpaError,
  ToolContext,
  ToolExecutingEvent,
  ToolResult,
  type EventDispatcher as EventDispatcherContract,
  type EventListener,
  type EventPayload,
  type Logger,
} from '@milpa/core';
import fc from 'fast-check';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { EventDispatcher } from './event-dispatcher.js';

function recordingLogger() {
  return { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies Logger;
}

/** Lets every queued microtask (and the promise chains they start) run. */
function flushAsyncWork(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function deferred(): { promise: Promise<void>; release: () => void } {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return MilpaError.isInstance(error) ? error.code : 'not a MilpaError';
  }
  return undefined;
}

/** Subscribes a listener that appends `label` to `calls`. */
function track(dispatcher: EventDispatcher, calls: string[], eventName: string, label: string, priority?: number) {
  return dispatcher.subscribe(eventName, () => void calls.push(label), priority);
}

describe('EventDispatcher', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('satisfies the EventDispatcher contract of @milpa/core', () => {
    expectTypeOf(new EventDispatcher()).toMatchTypeOf<EventDispatcherContract>();
  });

  describe('constructor', () => {
    it('throws INVALID_OPTIONS when the logger has no error method', () => {
      expect(codeOf(() => new EventDispatcher({ logger: {} as Logger }))).toBe('INVALID_OPTIONS');
      expect(codeOf(() => new EventDispatcher({ logger: null as unknown as Logger }))).toBe('INVALID_OPTIONS');
    });

    it('throws INVALID_OPTIONS when the async sink is not a function', () => {
      expect(codeOf(() => new EventDispatcher({ asyncSink: 'queue' as never }))).toBe('INVALID_OPTIONS');
    });

    it('logs listener errors to console when no logger is given', async () => {
      const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const dispatcher = new EventDispatcher();
      dispatcher.subscribe('user.created', () => {
        throw new Error('boom');
      });

      await dispatcher.dispatch('user.created');

      expect(consoleError).toHaveBeenCalledWith(
        { event: 'user.created', err: expect.any(Error) },
        '[EventDispatcher] Handler error for user.created: boom',
      );
    });
  });

  describe('subscribe', () => {
    it('delivers the event name and payload to the listener when the event is dispatched', async () => {
      const dispatcher = new EventDispatcher();
      const listener = vi.fn();
      dispatcher.subscribe('user.created', listener);

      await dispatcher.dispatch('user.created', { user_id: 123 });

      expect(listener).toHaveBeenCalledTimes(1);
      expect(listener).toHaveBeenCalledWith('user.created', { user_id: 123 });
    });

    it('hands every listener the very same payload object', async () => {
      const dispatcher = new EventDispatcher();
      const seen: EventPayload[] = [];
      dispatcher.subscribe('order.placed', (_name, payload) => void seen.push(payload));
      dispatcher.subscribe('order.*', (_name, payload) => void seen.push(payload));
      const payload = { order_id: 7 };

      await dispatcher.dispatch('order.placed', payload);

      expect(seen).toHaveLength(2);
      expect(seen[0]).toBe(payload);
      expect(seen[1]).toBe(payload);
    });

    it('calls listeners without a receiver so no dispatcher internals leak through this', async () => {
      const dispatcher = new EventDispatcher();
      let receiver: unknown = 'not called';
      dispatcher.subscribe('boot', function (this: unknown) {
        receiver = this;
      });

      await dispatcher.dispatch('boot');

      expect(receiver).toBeUndefined();
    });

    it('returns a function that removes the subscription', async () => {
      const dispatcher = new EventDispatcher();
      const listener = vi.fn();
      const unsubscribe = dispatcher.subscribe('user.created', listener);

      unsubscribe();
      await dispatcher.dispatch('user.created');

      expect(listener).not.toHaveBeenCalled();
      expect(dispatcher.hasSubscribers('user.created')).toBe(false);
    });

    it('removes only its own subscription when the same listener is subscribed twice', async () => {
      const dispatcher = new EventDispatcher();
      const listener = vi.fn();
      const first = dispatcher.subscribe('user.created', listener);
      dispatcher.subscribe('user.created', listener, 10);

      await dispatcher.dispatch('user.created');
      expect(listener).toHaveBeenCalledTimes(2);

      first();
      listener.mockClear();
      await dispatcher.dispatch('user.created');
      expect(listener).toHaveBeenCalledTimes(1);
    });

    it('does nothing when the unsubscribe function is called again', async () => {
      const dispatcher = new EventDispatcher();
      const listener = vi.fn();
      const unsubscribe = dispatcher.subscribe('user.created', listener);
      dispatcher.subscribe('user.created', listener);

      unsubscribe();
      unsubscribe();
      await dispatcher.dispatch('user.created');

      expect(listener).toHaveBeenCalledTimes(1);
    });

    it.each(['', 'user.**', 'user*', '*user', 'user..created', '.user', 'user.'])(
      'throws INVALID_EVENT_NAME and registers nothing when the pattern is %j',
      (pattern) => {
        const dispatcher = new EventDispatcher();
        const listener = vi.fn();

        expect(codeOf(() => dispatcher.subscribe(pattern, listener))).toBe('INVALID_EVENT_NAME');
        expect(dispatcher.hasSubscribers('user.created')).toBe(false);
        expect(dispatcher.hasSubscribers('user')).toBe(false);
      },
    );

    it('throws INVALID_EVENT_NAME when the name is not a string', () => {
      const dispatcher = new EventDispatcher();

      expect(codeOf(() => dispatcher.subscribe(undefined as never, vi.fn()))).toBe('INVALID_EVENT_NAME');
    });

    it.each([undefined, null, 'handler', {}])('throws INVALID_LISTENER and registers nothing when the listener is %j', (listener) => {
      const dispatcher = new EventDispatcher();

      expect(codeOf(() => dispatcher.subscribe('user.created', listener as never))).toBe('INVALID_LISTENER');
      expect(dispatcher.hasSubscribers('user.created')).toBe(false);
    });

    it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '10', null])(
      'throws INVALID_PRIORITY and registers nothing when the priority is %s',
      (priority) => {
        const dispatcher = new EventDispatcher();

        expect(codeOf(() => dispatcher.subscribe('user.created', vi.fn(), priority as never))).toBe('INVALID_PRIORITY');
        expect(dispatcher.hasSubscribers('user.created')).toBe(false);
      },
    );

    it('throws a message that names the event and the bad value when the priority is invalid', () => {
      const dispatcher = new EventDispatcher();

      expect(() => dispatcher.subscribe('user.created', vi.fn(), Number.NaN)).toThrow(
        "Priority for 'user.created' must be a finite number, got NaN",
      );
    });
  });

  describe('dispatch', () => {
    it('resolves to undefined when nobody listens', async () => {
      const dispatcher = new EventDispatcher();

      await expect(dispatcher.dispatch('unknown.event', { data: 'test' })).resolves.toBeUndefined();
    });

    it('passes a fresh empty payload when none is given', async () => {
      const dispatcher = new EventDispatcher();
      const seen: EventPayload[] = [];
      dispatcher.subscribe('no.payload', (_name, payload) => void seen.push(payload));

      await dispatcher.dispatch('no.payload');
      await dispatcher.dispatch('no.payload');

      expect(seen).toEqual([{}, {}]);
      expect(seen[0]).not.toBe(seen[1]);
    });

    it('runs higher priorities first and negative priorities after 0', async () => {
      const dispatcher = new EventDispatcher();
      const calls: string[] = [];
      track(dispatcher, calls, 'test.event', 'low', 0);
      track(dispatcher, calls, 'test.event', 'negative', -10);
      track(dispatcher, calls, 'test.event', 'high', 100);
      track(dispatcher, calls, 'test.event', 'medium', 50);

      await dispatcher.dispatch('test.event');

      expect(calls).toEqual(['high', 'medium', 'low', 'negative']);
    });

    it('orders fractional priorities numerically', async () => {
      const dispatcher = new EventDispatcher();
      const calls: string[] = [];
      track(dispatcher, calls, 'test.event', 'one', 1);
      track(dispatcher, calls, 'test.event', 'one-and-a-half', 1.5);

      await dispatcher.dispatch('test.event');

      expect(calls).toEqual(['one-and-a-half', 'one']);
    });

    it('keeps subscription order when priorities are equal', async () => {
      const dispatcher = new EventDispatcher();
      const calls: string[] = [];
      track(dispatcher, calls, 'order.placed', 'first');
      track(dispatcher, calls, 'order.placed', 'second');
      track(dispatcher, calls, 'order.placed', 'third');

      await dispatcher.dispatch('order.placed');

      expect(calls).toEqual(['first', 'second', 'third']);
    });

    it('runs exact high, exact medium, then wildcard low when exact 100 and 50 meet wildcard 0', async () => {
      const dispatcher = new EventDispatcher();
      const calls: string[] = [];
      track(dispatcher, calls, 'test.event', 'exact-high', 100);
      track(dispatcher, calls, 'test.*', 'wildcard-low', 0);
      track(dispatcher, calls, 'test.event', 'exact-medium', 50);

      await dispatcher.dispatch('test.event');

      expect(calls).toEqual(['exact-high', 'exact-medium', 'wildcard-low']);
    });

    it('runs exact-name listeners before wildcard ones of the same priority even when the wildcard subscribed first', async () => {
      const dispatcher = new EventDispatcher();
      const calls: string[] = [];
      track(dispatcher, calls, '*.created', 'wildcard-suffix');
      track(dispatcher, calls, 'user.*', 'wildcard-prefix');
      track(dispatcher, calls, 'user.created', 'exact');

      await dispatcher.dispatch('user.created');

      expect(calls).toEqual(['exact', 'wildcard-suffix', 'wildcard-prefix']);
    });

    it('runs a higher-priority wildcard before a lower-priority exact listener', async () => {
      const dispatcher = new EventDispatcher();
      const calls: string[] = [];
      track(dispatcher, calls, 'user.created', 'exact', 0);
      track(dispatcher, calls, 'user.*', 'wildcard', 10);

      await dispatcher.dispatch('user.created');

      expect(calls).toEqual(['wildcard', 'exact']);
    });

    it('delivers user.* for user.created and user.updated only', async () => {
      const dispatcher = new EventDispatcher();
      const names: string[] = [];
      dispatcher.subscribe('user.*', (eventName) => void names.push(eventName));

      for (const eventName of ['user.created', 'user.updated', 'order.created', 'app.user.created', 'user']) {
        await dispatcher.dispatch(eventName);
      }

      expect(names).toEqual(['user.created', 'user.updated']);
    });

    it('delivers *.created for user.created and order.created but not user.createdX', async () => {
      const dispatcher = new EventDispatcher();
      const names: string[] = [];
      dispatcher.subscribe('*.created', (eventName) => void names.push(eventName));

      for (const eventName of ['user.created', 'order.created', 'user.updated', 'user.createdX', 'a.user.created']) {
        await dispatcher.dispatch(eventName);
      }

      expect(names).toEqual(['user.created', 'order.created']);
    });

    it('delivers a bare * for single-segment names only', async () => {
      const dispatcher = new EventDispatcher();
      const names: string[] = [];
      dispatcher.subscribe('*', (eventName) => void names.push(eventName));

      for (const eventName of ['boot', 'ready', 'user.created']) {
        await dispatcher.dispatch(eventName);
      }

      expect(names).toEqual(['boot', 'ready']);
    });

    it('matches case-sensitively', async () => {
      const dispatcher = new EventDispatcher();
      const listener = vi.fn();
      dispatcher.subscribe('User.*', listener);
      dispatcher.subscribe('user.Created', listener);

      await dispatcher.dispatch('user.created');

      expect(listener).not.toHaveBeenCalled();
    });

    it('runs every matching wildcard pattern when several match', async () => {
      const dispatcher = new EventDispatcher();
      const calls: string[] = [];
      track(dispatcher, calls, 'user.*', 'user.*');
      track(dispatcher, calls, '*.updated', '*.updated');
      track(dispatcher, calls, '*.*', '*.*');

      await dispatcher.dispatch('user.updated');

      expect(calls).toEqual(['user.*', '*.updated', '*.*']);
    });

    it('waits for an async listener to finish before starting the next one', async () => {
      const dispatcher = new EventDispatcher();
      const calls: string[] = [];
      const gate = deferred();
      dispatcher.subscribe(
        'tool.executing',
        async () => {
          calls.push('first:start');
          await gate.promise;
          calls.push('first:end');
        },
        10,
      );
      track(dispatcher, calls, 'tool.executing', 'second');

      let settled = false;
      const done = dispatcher.dispatch('tool.executing').then(() => {
        settled = true;
      });
      await flushAsyncWork();

      expect(calls).toEqual(['first:start']);
      expect(settled).toBe(false);

      gate.release();
      await done;
      expect(calls).toEqual(['first:start', 'first:end', 'second']);
    });

    it('resolves only after the last async listener has finished', async () => {
      const dispatcher = new EventDispatcher();
      const gate = deferred();
      let finished = false;
      dispatcher.subscribe('report.ready', async () => {
        await gate.promise;
        finished = true;
      });

      const done = dispatcher.dispatch('report.ready');
      await flushAsyncWork();
      expect(finished).toBe(false);

      gate.release();
      await done;
      expect(finished).toBe(true);
    });

    it('logs a throwing listener with the exact message and still runs the later ones', async () => {
      const logger = recordingLogger();
      const dispatcher = new EventDispatcher({ logger });
      const error = new Error('Handler error');
      const later = vi.fn();
      dispatcher.subscribe(
        'error.event',
        () => {
          throw error;
        },
        10,
      );
      dispatcher.subscribe('error.event', later);

      await expect(dispatcher.dispatch('error.event')).resolves.toBeUndefined();

      expect(later).toHaveBeenCalledTimes(1);
      expect(logger.error).toHaveBeenCalledTimes(1);
      expect(logger.error).toHaveBeenCalledWith(
        { event: 'error.event', err: error },
        '[EventDispatcher] Handler error for error.event: Handler error',
      );
    });

    it('logs a rejecting async listener and still runs the later ones', async () => {
      const logger = recordingLogger();
      const dispatcher = new EventDispatcher({ logger });
      const later = vi.fn();
      dispatcher.subscribe('cache.lookup', async () => {
        await Promise.resolve();
        throw new TypeError('cache offline');
      });
      dispatcher.subscribe('cache.lookup', later);

      await expect(dispatcher.dispatch('cache.lookup')).resolves.toBeUndefined();

      expect(later).toHaveBeenCalledTimes(1);
      expect(logger.error).toHaveBeenCalledWith(
        { event: 'cache.lookup', err: expect.any(TypeError) },
        '[EventDispatcher] Handler error for cache.lookup: cache offline',
      );
    });

    const unprintable = {
      toString(): string {
        throw new Error('no');
      },
    };
    it.each([
      ['a string', 'plain failure', 'plain failure'],
      ['a number', 42, '42'],
      ['undefined', undefined, 'undefined'],
      ['null', null, 'null'],
      ['an object with a message', { message: 'shaped like an error' }, 'shaped like an error'],
      ['an object without a message', { code: 7 }, '[object Object]'],
      ['an object that cannot be printed', unprintable, 'a thrown value that cannot be printed'],
    ])('logs and isolates a listener that throws %s', async (_kind, thrown, described) => {
      const logger = recordingLogger();
      const dispatcher = new EventDispatcher({ logger });
      const later = vi.fn();
      dispatcher.subscribe('odd.throw', () => {
        throw thrown;
      });
      dispatcher.subscribe('odd.throw', async () => Promise.reject(thrown));
      dispatcher.subscribe('odd.throw', later);

      await expect(dispatcher.dispatch('odd.throw')).resolves.toBeUndefined();

      expect(later).toHaveBeenCalledTimes(1);
      expect(logger.error).toHaveBeenCalledTimes(2);
      expect(logger.error).toHaveBeenNthCalledWith(
        1,
        { event: 'odd.throw', err: thrown },
        `[EventDispatcher] Handler error for odd.throw: ${described}`,
      );
      expect(logger.error).toHaveBeenNthCalledWith(
        2,
        { event: 'odd.throw', err: thrown },
        `[EventDispatcher] Handler error for odd.throw: ${described}`,
      );
    });

    it('still resolves and runs later listeners when the logger itself throws', async () => {
      const logger = recordingLogger();
      logger.error.mockImplementation(() => {
        throw new Error('log sink down');
      });
      const dispatcher = new EventDispatcher({ logger });
      const later = vi.fn();
      dispatcher.subscribe('error.event', () => {
        throw new Error('listener failed');
      });
      dispatcher.subscribe('error.event', later);

      await expect(dispatcher.dispatch('error.event')).resolves.toBeUndefined();

      expect(logger.error).toHaveBeenCalledTimes(1);
      expect(later).toHaveBeenCalledTimes(1);
    });

    it('rejects with INVALID_EVENT_NAME and runs nothing when the name is malformed', async () => {
      const dispatcher = new EventDispatcher();
      const listener = vi.fn();
      dispatcher.subscribe('user.*', listener);

      await expect(dispatcher.dispatch('user.*')).rejects.toMatchObject({ code: 'INVALID_EVENT_NAME' });
      await expect(dispatcher.dispatch('')).rejects.toMatchObject({ code: 'INVALID_EVENT_NAME' });
      expect(listener).not.toHaveBeenCalled();
    });

    describe('with an InterceptionSlot in the payload', () => {
      it('ends the dispatch after the listener that stops the slot', async () => {
        const dispatcher = new EventDispatcher();
        const calls: string[] = [];
        track(dispatcher, calls, 'tool.executing', 'before', 100);
        dispatcher.subscribe(
          'tool.executing',
          (_name, payload) => {
            calls.push('veto');
            (payload.slot as InterceptionSlot).stop();
          },
          50,
        );
        track(dispatcher, calls, 'tool.executing', 'after', 0);
        track(dispatcher, calls, 'tool.*', 'wildcard-after', 0);
        const slot = new InterceptionSlot();

        await dispatcher.dispatch('tool.executing', { slot });

        expect(calls).toEqual(['before', 'veto']);
        expect(slot.isStopped()).toBe(true);
        expect(slot.hasResult()).toBe(false);
      });

      it('never runs the lower-priority listener when the higher-priority one short-circuits', async () => {
        const dispatcher = new EventDispatcher();
        const cached = ToolResult.success({ id: 42, source: 'cache' });
        const lower = vi.fn();
        dispatcher.subscribe('tool.executing', lower, 0);
        dispatcher.subscribe(
          'tool.executing',
          async (_name, payload) => {
            await Promise.resolve();
            (payload.slot as InterceptionSlot).shortCircuit(cached);
          },
          100,
        );
        const slot = new InterceptionSlot();

        await dispatcher.dispatch('tool.executing', {
          event: new ToolExecutingEvent('get_report', ToolContext.cli(), { id: 42 }),
          slot,
        });

        expect(lower).not.toHaveBeenCalled();
        expect(slot.getResult()).toBe(cached);
      });

      it('ends the dispatch when a listener stops the slot and then throws', async () => {
        const logger = recordingLogger();
        const dispatcher = new EventDispatcher({ logger });
        const later = vi.fn();
        dispatcher.subscribe(
          'tool.executing',
          (_name, payload) => {
            (payload.slot as InterceptionSlot).shortCircuit(null);
            throw new Error('after deciding');
          },
          10,
        );
        dispatcher.subscribe('tool.executing', later);
        const slot = new InterceptionSlot();

        await dispatcher.dispatch('tool.executing', { slot });

        expect(later).not.toHaveBeenCalled();
        expect(slot.hasResult()).toBe(true);
        expect(slot.getResult()).toBeNull();
        expect(logger.error).toHaveBeenCalledWith(
          { event: 'tool.executing', err: expect.any(Error) },
          '[EventDispatcher] Handler error for tool.executing: after deciding',
        );
      });

      it('runs every listener when nobody touches the slot', async () => {
        const dispatcher = new EventDispatcher();
        const calls: string[] = [];
        track(dispatcher, calls, 'tool.executing', 'first', 10);
        track(dispatcher, calls, 'tool.executing', 'second');
        const slot = new InterceptionSlot();

        await dispatcher.dispatch('tool.executing', { slot });

        expect(calls).toEqual(['first', 'second']);
        expect(slot.isStopped()).toBe(false);
      });

      it('recognises a slot from another copy of @milpa/core by its brand', async () => {
        const dispatcher = new EventDispatcher();
        const later = vi.fn();
        class ForeignSlot {
          #stopped = false;
          stop(): void {
            this.#stopped = true;
          }
          isStopped(): boolean {
            return this.#stopped;
          }
        }
        Object.defineProperty(ForeignSlot.prototype, Symbol.for('milpa.InterceptionSlot'), { value: true });
        dispatcher.subscribe('tool.executing', (_name, payload) => (payload.slot as ForeignSlot).stop(), 10);
        dispatcher.subscribe('tool.executing', later);

        await dispatcher.dispatch('tool.executing', { slot: new ForeignSlot() });

        expect(later).not.toHaveBeenCalled();
      });

      it('ignores a slot-shaped value that is not an InterceptionSlot', async () => {
        const dispatcher = new EventDispatcher();
        const later = vi.fn();
        const lookalike = { stop: vi.fn(), isStopped: () => true };
        dispatcher.subscribe('tool.executing', (_name, payload) => (payload.slot as { stop?: () => void }).stop?.(), 10);
        dispatcher.subscribe('tool.executing', later);

        await dispatcher.dispatch('tool.executing', { slot: lookalike });
        await dispatcher.dispatch('tool.executing', { slot: 'stopped' });

        expect(later).toHaveBeenCalledTimes(2);
      });

      it('ends the dispatch for a slot found under slot only, not under another key', async () => {
        const dispatcher = new EventDispatcher();
        const later = vi.fn();
        dispatcher.subscribe('tool.executing', (_name, payload) => (payload.interception as InterceptionSlot).stop(), 10);
        dispatcher.subscribe('tool.executing', later);

        await dispatcher.dispatch('tool.executing', { interception: new InterceptionSlot() });

        expect(later).toHaveBeenCalledTimes(1);
      });
    });

    describe('while a dispatch is running', () => {
      it('runs a listener subscribed mid-dispatch from the next dispatch on', async () => {
        const dispatcher = new EventDispatcher();
        const calls: string[] = [];
        let subscribed = false;
        dispatcher.subscribe('job.tick', () => {
          calls.push('existing');
          if (!subscribed) {
            subscribed = true;
            track(dispatcher, calls, 'job.tick', 'late-exact', -10);
            track(dispatcher, calls, 'job.*', 'late-wildcard', -10);
          }
        });

        await dispatcher.dispatch('job.tick');
        expect(calls).toEqual(['existing']);

        await dispatcher.dispatch('job.tick');
        expect(calls).toEqual(['existing', 'existing', 'late-exact', 'late-wildcard']);
      });

      it('still runs a listener unsubscribed mid-dispatch in that dispatch, and not in the next', async () => {
        const dispatcher = new EventDispatcher();
        const calls: string[] = [];
        let unsubscribeLater = (): void => undefined;
        dispatcher.subscribe(
          'job.tick',
          () => {
            calls.push('first');
            unsubscribeLater();
          },
          10,
        );
        unsubscribeLater = track(dispatcher, calls, 'job.tick', 'later');

        await dispatcher.dispatch('job.tick');
        expect(calls).toEqual(['first', 'later']);

        await dispatcher.dispatch('job.tick');
        expect(calls).toEqual(['first', 'later', 'first']);
      });

      it('keeps its own listener list when another dispatch of the same name changes subscriptions', async () => {
        const dispatcher = new EventDispatcher();
        const calls: string[] = [];
        const gate = deferred();
        dispatcher.subscribe(
          'job.tick',
          async () => {
            calls.push('slow');
            await gate.promise;
          },
          10,
        );
        const unsubscribe = track(dispatcher, calls, 'job.tick', 'fast');

        const running = dispatcher.dispatch('job.tick');
        unsubscribe();
        track(dispatcher, calls, 'job.tick', 'newcomer');
        gate.release();
        await running;

        expect(calls).toEqual(['slow', 'fast']);
      });
    });

    it('orders any mix of exact and wildcard subscriptions by priority, then exact first, then subscription order', async () => {
      const subscriptionSpec = fc.record({
        wildcard: fc.boolean(),
        priority: fc.integer({ min: -3, max: 3 }),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(subscriptionSpec, { maxLength: 12 }), async (specs) => {
          const dispatcher = new EventDispatcher();
          const calls: number[] = [];
          specs.forEach((spec, index) => {
            dispatcher.subscribe(spec.wildcard ? 'user.*' : 'user.created', () => void calls.push(index), spec.priority);
          });

          await dispatcher.dispatch('user.created');

          const expected = specs
            .map((spec, index) => ({ ...spec, index }))
            .sort(
              (left, right) => right.priority - left.priority || Number(left.wildcard) - Number(right.wildcard) || left.index - right.index,
            )
            .map((spec) => spec.index);
          expect(calls).toEqual(expected);
        }),
      );
    });
  });

  describe('hasSubscribers', () => {
    it('turns true once an exact listener subscribes and false once it leaves', () => {
      const dispatcher = new EventDispatcher();
      expect(dispatcher.hasSubscribers('test.event')).toBe(false);

      const unsubscribe = dispatcher.subscribe('test.event', vi.fn());
      expect(dispatcher.hasSubscribers('test.event')).toBe(true);

      unsubscribe();
      expect(dispatcher.hasSubscribers('test.event')).toBe(false);
    });

    it('counts wildcard matches', () => {
      const dispatcher = new EventDispatcher();
      dispatcher.subscribe('user.*', vi.fn());

      expect(dispatcher.hasSubscribers('user.created')).toBe(true);
      expect(dispatcher.hasSubscribers('user.deleted')).toBe(true);
      expect(dispatcher.hasSubscribers('order.created')).toBe(false);
    });

    it('throws INVALID_EVENT_NAME when the name is malformed', () => {
      const dispatcher = new EventDispatcher();

      expect(codeOf(() => dispatcher.hasSubscribers('user.*'))).toBe('INVALID_EVENT_NAME');
    });
  });

  describe('getSubscribers', () => {
    it('lists exact and wildcard listeners in dispatch order', () => {
      const dispatcher = new EventDispatcher();
      const exactHigh = vi.fn();
      const exactMedium = vi.fn();
      const wildcardLow = vi.fn();
      dispatcher.subscribe('test.event', exactHigh, 100);
      dispatcher.subscribe('test.*', wildcardLow, 0);
      dispatcher.subscribe('test.event', exactMedium, 50);

      expect(dispatcher.getSubscribers('test.event')).toEqual([exactHigh, exactMedium, wildcardLow]);
    });

    it('returns an empty list when a different exact name is subscribed', () => {
      const dispatcher = new EventDispatcher();
      dispatcher.subscribe('user.created', vi.fn());

      expect(dispatcher.getSubscribers('order.created')).toEqual([]);
    });

    it('returns a frozen list so callers cannot change what dispatch runs', async () => {
      const dispatcher = new EventDispatcher();
      const listener = vi.fn();
      dispatcher.subscribe('user.created', listener);

      const subscribers = dispatcher.getSubscribers('user.created') as EventListener[];
      expect(() => subscribers.push(vi.fn())).toThrow(TypeError);
      await dispatcher.dispatch('user.created');

      expect(listener).toHaveBeenCalledTimes(1);
      expect(dispatcher.getSubscribers('user.created')).toHaveLength(1);
    });

    it('throws INVALID_EVENT_NAME when the name is malformed', () => {
      const dispatcher = new EventDispatcher();

      expect(codeOf(() => dispatcher.getSubscribers(''))).toBe('INVALID_EVENT_NAME');
    });
  });

  describe('listener cache', () => {
    it('picks up a wildcard subscribed after the name was resolved with no listeners', async () => {
      const dispatcher = new EventDispatcher();
      const listener = vi.fn();
      expect(dispatcher.hasSubscribers('user.created')).toBe(false);
      await dispatcher.dispatch('user.created');

      dispatcher.subscribe('*.created', listener);

      expect(dispatcher.hasSubscribers('user.created')).toBe(true);
      await dispatcher.dispatch('user.created');
      expect(listener).toHaveBeenCalledTimes(1);
    });

    it('drops a wildcard listener from every resolved name it matched when it unsubscribes', async () => {
      const dispatcher = new EventDispatcher();
      const wildcard = vi.fn();
      const exact = vi.fn();
      const unsubscribe = dispatcher.subscribe('user.*', wildcard);
      dispatcher.subscribe('user.created', exact);
      await dispatcher.dispatch('user.created');
      await dispatcher.dispatch('user.deleted');
      expect(wildcard).toHaveBeenCalledTimes(2);

      unsubscribe();
      await dispatcher.dispatch('user.created');
      await dispatcher.dispatch('user.deleted');

      expect(wildcard).toHaveBeenCalledTimes(2);
      expect(exact).toHaveBeenCalledTimes(2);
      expect(dispatcher.getSubscribers('user.created')).toEqual([exact]);
      expect(dispatcher.hasSubscribers('user.deleted')).toBe(false);
    });

    it('keeps resolved names that a new subscription does not match', () => {
      const dispatcher = new EventDispatcher();
      const orders = vi.fn();
      dispatcher.subscribe('order.created', orders);
      const before = dispatcher.getSubscribers('order.created');

      dispatcher.subscribe('user.*', vi.fn());
      dispatcher.subscribe('user.created', vi.fn());

      expect(dispatcher.getSubscribers('order.created')).toBe(before);
    });

    it('re-resolves an exact name when a listener subscribes to it', () => {
      const dispatcher = new EventDispatcher();
      const first = vi.fn();
      const second = vi.fn();
      dispatcher.subscribe('user.created', first);
      const before = dispatcher.getSubscribers('user.created');

      dispatcher.subscribe('user.created', second, 5);

      expect(before).toEqual([first]);
      expect(dispatcher.getSubscribers('user.created')).toEqual([second, first]);
    });

    it('keeps resolving correctly after more distinct names than the cache holds', async () => {
      const dispatcher = new EventDispatcher();
      const listener = vi.fn();
      dispatcher.subscribe('bulk.*', listener);

      for (let index = 0; index < 2100; index++) {
        expect(dispatcher.hasSubscribers(`other.n${index}`)).toBe(false);
      }
      await dispatcher.dispatch('bulk.first');
      for (let index = 0; index < 2100; index++) dispatcher.hasSubscribers(`bulk.n${index}`);
      const late = vi.fn();
      dispatcher.subscribe('bulk.first', late);
      await dispatcher.dispatch('bulk.first');

      expect(listener).toHaveBeenCalledTimes(2);
      expect(late).toHaveBeenCalledTimes(1);
    });

    it('returns the same settled promise for every dispatch nobody listens to', () => {
      const dispatcher = new EventDispatcher();

      const first = dispatcher.dispatch('tool.executing', { slot: new InterceptionSlot() });
      const second = dispatcher.dispatch('tool.executing', { slot: new InterceptionSlot() });

      expect(first).toBe(second);
    });
  });

  describe('notify', () => {
    it('throws SLOT_IN_ASYNC_DISPATCH before running anything when the payload carries a slot', async () => {
      const dispatcher = new EventDispatcher();
      const listener = vi.fn();
      dispatcher.subscribe('tool.executing', listener);

      let thrown: unknown;
      try {
        dispatcher.notify('tool.executing', { slot: new InterceptionSlot() });
      } catch (error) {
        thrown = error;
      }
      await flushAsyncWork();

      expect(MilpaError.isInstance(thrown)).toBe(true);
      expect(thrown).toMatchObject({ code: 'SLOT_IN_ASYNC_DISPATCH' });
      expect(
        (thrown as Error).message.startsWith("Cannot dispatch 'tool.executing' asynchronously with an InterceptionSlot in the payload:"),
      ).toBe(true);
      expect(listener).not.toHaveBeenCalled();
    });

    it('throws before reaching the sink when the payload carries a slot', () => {
      const asyncSink = vi.fn();
      const dispatcher = new EventDispatcher({ asyncSink });

      expect(codeOf(() => dispatcher.notify('tool.executing', { slot: new InterceptionSlot() }))).toBe('SLOT_IN_ASYNC_DISPATCH');
      expect(asyncSink).not.toHaveBeenCalled();
    });

    it('hands the event only to the sink when one is wired', async () => {
      const asyncSink = vi.fn();
      const dispatcher = new EventDispatcher({ asyncSink });
      const listener = vi.fn();
      dispatcher.subscribe('async.event', listener);
      dispatcher.subscribe('async.*', listener);

      dispatcher.notify('async.event', { key: 'value' });
      expect(asyncSink).toHaveBeenCalledWith('async.event', { key: 'value' });
      await flushAsyncWork();

      expect(asyncSink).toHaveBeenCalledTimes(1);
      expect(listener).not.toHaveBeenCalled();
    });

    it('hands the sink an empty payload when none is given', () => {
      const asyncSink = vi.fn();
      const dispatcher = new EventDispatcher({ asyncSink });

      dispatcher.notify('async.event');

      expect(asyncSink).toHaveBeenCalledWith('async.event', {});
    });

    it('logs a sink that throws instead of throwing at the notifier', () => {
      const logger = recordingLogger();
      const failure = new Error('queue full');
      const dispatcher = new EventDispatcher({
        logger,
        asyncSink: () => {
          throw failure;
        },
      });

      expect(() => dispatcher.notify('async.event')).not.toThrow();
      expect(logger.error).toHaveBeenCalledWith(
        { event: 'async.event', err: failure },
        '[EventDispatcher] Async sink error for async.event: queue full',
      );
    });

    it('logs a sink that rejects', async () => {
      const logger = recordingLogger();
      const dispatcher = new EventDispatcher({ logger, asyncSink: async () => Promise.reject(new Error('broker down')) });

      dispatcher.notify('async.event');
      await flushAsyncWork();

      expect(logger.error).toHaveBeenCalledWith(
        { event: 'async.event', err: expect.any(Error) },
        '[EventDispatcher] Async sink error for async.event: broker down',
      );
    });

    it('runs the listeners on a later microtask, in order, when no sink is wired', async () => {
      const dispatcher = new EventDispatcher();
      const calls: string[] = [];
      const received: unknown[] = [];
      track(dispatcher, calls, 'fallback.event', 'low', -1);
      track(dispatcher, calls, 'fallback.*', 'wildcard');
      dispatcher.subscribe(
        'fallback.event',
        (eventName, payload) => {
          calls.push('high');
          received.push(eventName, payload);
        },
        10,
      );

      dispatcher.notify('fallback.event', { key: 'value' });
      expect(calls).toEqual([]);
      await flushAsyncWork();

      expect(calls).toEqual(['high', 'wildcard', 'low']);
      expect(received).toEqual(['fallback.event', { key: 'value' }]);
    });

    it('awaits async listeners one after another when no sink is wired', async () => {
      const dispatcher = new EventDispatcher();
      const calls: string[] = [];
      const gate = deferred();
      dispatcher.subscribe(
        'fallback.event',
        async () => {
          calls.push('first:start');
          await gate.promise;
          calls.push('first:end');
        },
        1,
      );
      track(dispatcher, calls, 'fallback.event', 'second');

      dispatcher.notify('fallback.event');
      await flushAsyncWork();
      expect(calls).toEqual(['first:start']);

      gate.release();
      await flushAsyncWork();
      expect(calls).toEqual(['first:start', 'first:end', 'second']);
    });

    it('isolates and logs a failing listener when no sink is wired', async () => {
      const logger = recordingLogger();
      const dispatcher = new EventDispatcher({ logger });
      const later = vi.fn();
      dispatcher.subscribe('fallback.event', async () => Promise.reject(new Error('late failure')), 1);
      dispatcher.subscribe('fallback.event', later);

      dispatcher.notify('fallback.event');
      await flushAsyncWork();

      expect(later).toHaveBeenCalledTimes(1);
      expect(logger.error).toHaveBeenCalledWith(
        { event: 'fallback.event', err: expect.any(Error) },
        '[EventDispatcher] Handler error for fallback.event: late failure',
      );
    });

    it('runs the listeners subscribed when notify was called, not those added before they run', async () => {
      const dispatcher = new EventDispatcher();
      const calls: string[] = [];
      track(dispatcher, calls, 'fallback.event', 'present');

      dispatcher.notify('fallback.event');
      track(dispatcher, calls, 'fallback.event', 'too-late');
      await flushAsyncWork();

      expect(calls).toEqual(['present']);
    });

    it('accepts a slot-shaped value that is not an InterceptionSlot', async () => {
      const dispatcher = new EventDispatcher();
      const listener = vi.fn();
      dispatcher.subscribe('fallback.event', listener);

      dispatcher.notify('fallback.event', { slot: { isStopped: () => true } });
      await flushAsyncWork();

      expect(listener).toHaveBeenCalledTimes(1);
    });

    it('throws INVALID_EVENT_NAME and runs nothing when the name is malformed', async () => {
      const asyncSink = vi.fn();
      const dispatcher = new EventDispatcher({ asyncSink });

      expect(codeOf(() => dispatcher.notify('user.*'))).toBe('INVALID_EVENT_NAME');
      expect(asyncSink).not.toHaveBeenCalled();
    });
  });
});
