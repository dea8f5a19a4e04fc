// @milpa/events: the reference event dispatcher of Milpa, the governed tool-execution runtime for AI agents.
// Priorities, one-segment wildcards, awaited and isolated listeners, and InterceptionSlot support.

export { EventDispatcher, type EventDispatcherOptions } from './dispatcher/event-dispatcher.js';
export type { AsyncEventSink } from './dispatcher/async-event-sink.js';
export { EventDispatcherError, type EventDispatcherErrorCode } from './errors/event-dispatcher-error.js';
