import type { EventPayload } from '@milpa/core';

/**
 * Where `EventDispatcher.notify()` hands events when one is wired, typically a queue that
 * delivers them in another process or later. It receives the event instead of the local
 * listeners. It may return a promise; a failure (a throw or a rejection) is logged, never thrown
 * at the notifier.
 *
 * @example
 * const dispatcher = new EventDispatcher({
 *   asyncSink: (eventName, payload) => queue.add(eventName, payload),
 * });
 */
export type AsyncEventSink = (eventName: string, payload: EventPayload) => void | Promise<void>;
