import { describe, expectTypeOf, it } from 'vitest';
import type { EventDispatcher, EventListener, EventPayload } from './event-dispatcher.js';

describe('EventDispatcher', () => {
  it('lets listeners be synchronous or asynchronous', () => {
    expectTypeOf<(name: string, payload: EventPayload) => void>().toExtend<EventListener>();
    expectTypeOf<(name: string, payload: EventPayload) => Promise<void>>().toExtend<EventListener>();
  });

  it('returns an unsubscribe function from subscribe and a promise from dispatch', () => {
    expectTypeOf<EventDispatcher['subscribe']>().returns.toEqualTypeOf<() => void>();
    expectTypeOf<EventDispatcher['dispatch']>().returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf<EventDispatcher['subscribe']>().parameter(2).toEqualTypeOf<number | undefined>();
  });
});
