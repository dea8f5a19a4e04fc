/** The payload of an event: a map, e.g. `{ event }` or `{ event, slot }`. */
export type EventPayload = Readonly<Record<string, unknown>>;

/** A listener: receives the event name and payload; may be async (a cache lookup usually is). */
export type EventListener<P extends EventPayload = EventPayload> = (eventName: string, payload: P) => void | Promise<void>;

/**
 * The event dispatcher contract. Listeners subscribe to an exact name or a one-segment wildcard
 * (`tool.*`, `*.created`); higher priority runs first; equal priorities keep subscription order,
 * exact names before wildcards.
 *
 * `dispatch` awaits listeners one after another. When `payload.slot` is an `InterceptionSlot`, a
 * stopped slot ends the dispatch after the listener that stopped it. A throwing listener is
 * isolated: the error is logged and later listeners still run; `dispatch` never rejects for it.
 */
export interface EventDispatcher {
  /** Subscribes `listener`; returns a function that unsubscribes it. */
  subscribe(eventName: string, listener: EventListener, priority?: number): () => void;
  /** Runs matching listeners in order and resolves when they have all finished. */
  dispatch(eventName: string, payload?: EventPayload): Promise<void>;
  /** True when at least one listener (exact or wildcard) matches `eventName`. */
  hasSubscribers(eventName: string): boolean;
  /** The matching listeners, in the order `dispatch` would run them. */
  getSubscribers(eventName: string): readonly EventListener[];
}
