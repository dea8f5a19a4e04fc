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
