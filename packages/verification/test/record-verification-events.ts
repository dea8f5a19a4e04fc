import { expect } from 'vitest';
import type { EventDispatcher, EventPayload } from '@milpa/core';
import { EventDispatcher as ReferenceDispatcher } from '@milpa/events';

/** One dispatched event as a listener saw it. */
export interface RecordedEvent {
  readonly name: string;
  readonly payload: EventPayload;
}

/** A real reference dispatcher with a `verification.*` listener recording every event in order. */
export function recordVerificationEvents(): { dispatcher: EventDispatcher; events: RecordedEvent[] } {
  const dispatcher = new ReferenceDispatcher();
  const events: RecordedEvent[] = [];
  dispatcher.subscribe('verification.*', (name, payload) => {
    events.push({ name, payload });
  });
  return { dispatcher, events };
}

/**
 * Asserts the documented payload shape — exactly `{ event }`, never flattened, so `payload.subject` is
 * undefined — and that the event is an instance of `EventClass`; returns the event.
 */
export function eventOf<T>(recorded: RecordedEvent | undefined, EventClass: abstract new (...args: never[]) => T): T {
  expect(recorded).toBeDefined();
  const payload = recorded!.payload;
  expect(Object.keys(payload)).toEqual(['event']);
  expect(payload['subject']).toBeUndefined();
  expect(payload['event']).toBeInstanceOf(EventClass);
  return payload['event'] as T;
}
