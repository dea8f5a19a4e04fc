import {
  InterceptionSlot,
  type EventDispatcher as EventDispatcherContract,
  type EventListener,
  type EventPayload,
  type Logger,
} from '@milpa/core';
import { EventEmitter } from 'eventemitter3';
import { EventDispatcherError } from '../errors/event-dispatcher-error.js';
import { assertEventName, assertSubscriptionPattern, isWildcardPattern, matchesWildcardPattern } from '../naming/event-name-grammar.js';
import type { AsyncEventSink } from './async-event-sink.js';

/** Options of {@link EventDispatcher}. */
export interface EventDispatcherOptions {
  /** Receives listener and sink failures; defaults to `console` so a failure is never silently lost. */
  readonly logger?: Logger;
  /** When set, `notify()` hands events to it instead of running the local listeners. */
  readonly asyncSink?: AsyncEventSink;
}

/** One `subscribe()` call. It is also the eventemitter3 context under which it is stored. */
interface Subscription {
  readonly pattern: string;
  readonly listener: EventListener;
  readonly priority: number;
  readonly wildcard: boolean;
  /** Global subscription order, the last tie-breaker. */
  readonly sequence: number;
}

type ResolvedListeners = readonly EventListener[];

const NO_LISTENERS: ResolvedListeners = Object.freeze([]);
const SETTLED: Promise<void> = Promise.resolve();

// Distinct names are normally a handful of constants, but nothing stops a host from dispatching
// names built from data; past this many the cache starts over instead of growing without bound.
const MAX_CACHED_NAMES = 1024;

/** Registered with eventemitter3 for every subscription; `emit(pattern, found)` lists a pattern's subscriptions. */
function collectSubscription(this: Subscription, found: Subscription[]): void {
  found.push(this);
}

function compareSubscriptions(left: Subscription, right: Subscription): number {
  if (left.priority !== right.priority) return right.priority - left.priority;
  if (left.wildcard !== right.wildcard) return left.wildcard ? 1 : -1;
  return left.sequence - right.sequence;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function'
  );
}

function ignoreRejection(): void {
  // Deliberately empty: reporting is best effort; the rejection is observed, nothing more.
}

/** A readable message for anything a listener may throw, including non-Error values. */
function describeThrownValue(value: unknown): string {
  try {
    if (typeof value === 'object' && value !== null) {
      const { message } = value as { message?: unknown };
      if (typeof message === 'string') return message;
    }
    return String(value);
  } catch {
    // A hostile `message` getter or `toString` must not stop the failure from being logged.
    return 'a thrown value that cannot be printed';
  }
}

/**
 * The reference {@link EventDispatcherContract | EventDispatcher} of Milpa: exact names and
 * one-segment `*` wildcards, priorities, interception slots, isolated listeners.
 *
 * Listeners run one after another, awaited when they return a promise: higher priority first;
 * equal priorities run exact-name subscriptions before wildcard ones, then in subscription order.
 * When `payload.slot` is an `InterceptionSlot`, a listener that stops it (`stop()` or
 * `shortCircuit()`) ends the dispatch, even if it then throws. A listener that throws or rejects
 * is logged (`[EventDispatcher] Handler error for {event}: {message}`) and the next one runs;
 * `dispatch` never rejects because of a listener.
 *
 * How it uses eventemitter3: the emitter is the listener store, keyed by subscription pattern
 * (an exact name or a wildcard such as `tool.*`). Each subscription is stored as the shared
 * `collectSubscription` function with the subscription record as its context, so `off(pattern,
 * collectSubscription, record)` removes exactly that subscription and `emit(pattern, found)` lists
 * a pattern's subscriptions in order. The emitter never runs listeners itself: its `emit` is
 * synchronous, stops at the first throw and knows no priorities. Ordering, wildcard matching,
 * awaiting, isolation and the slot are this class's own; it resolves the ordered listener list
 * once per event name and caches it until a subscription that matches the name is added or
 * removed, so a dispatch on the hot path is a map lookup.
 *
 * @example
 * const dispatcher = new EventDispatcher({ logger: pino() });
 * const unsubscribe = dispatcher.subscribe('user.*', async (eventName, payload) => {
 *   await audit.write(eventName, payload);
 * }, 100);
 * await dispatcher.dispatch('user.created', { user_id: 123 });
 * unsubscribe();
 */
export class EventDispatcher implements EventDispatcherContract {
  readonly #logger: Logger;
  readonly #asyncSink: AsyncEventSink | undefined;
  readonly #store = new EventEmitter<string, Subscription>();
  /** Resolved, ordered and frozen listener lists by event name; arrays are never mutated once cached. */
  readonly #resolved = new Map<string, ResolvedListeners>();
  #nextSequence = 0;

  constructor(options: EventDispatcherOptions = {}) {
    const { logger = console, asyncSink } = options;
    if (typeof logger !== 'object' || logger === null || typeof logger.error !== 'function') {
      throw new EventDispatcherError(
        'EventDispatcher option "logger" must be a Logger (an object with an error method)',
        'INVALID_OPTIONS',
      );
    }
    if (asyncSink !== undefined && typeof asyncSink !== 'function') {
      throw new EventDispatcherError('EventDispatcher option "asyncSink" must be a function', 'INVALID_OPTIONS');
    }
    this.#logger = logger;
    this.#asyncSink = asyncSink;
  }

  /**
   * Subscribes `listener` to an exact event name or a one-segment wildcard pattern (`user.*`,
   * `*.created`, `*`). Subscribing during a dispatch takes effect from the next dispatch.
   *
   * @param eventName An event name or a pattern in which `*` stands for one whole segment.
   * @param listener Called as `listener(eventName, payload)`; may return a promise, which is awaited.
   * @param priority Higher runs first; any finite number, default 0.
   * @returns A function that removes this subscription; calling it again does nothing.
   * @throws EventDispatcherError `INVALID_EVENT_NAME`, `INVALID_LISTENER` or `INVALID_PRIORITY`;
   *   nothing is registered then.
   * @example
   * const unsubscribe = dispatcher.subscribe('tool.executed', (_name, { event }) => metrics.count(event), -100);
   */
  subscribe(eventName: string, listener: EventListener, priority = 0): () => void {
    assertSubscriptionPattern(eventName);
    if (typeof listener !== 'function') {
      throw new EventDispatcherError(`Listener for '${eventName}' must be a function, got ${typeof listener}`, 'INVALID_LISTENER');
    }
    if (typeof priority !== 'number' || !Number.isFinite(priority)) {
      throw new EventDispatcherError(`Priority for '${eventName}' must be a finite number, got ${String(priority)}`, 'INVALID_PRIORITY');
    }

    const subscription: Subscription = {
      pattern: eventName,
      listener,
      priority,
      wildcard: isWildcardPattern(eventName),
      sequence: this.#nextSequence++,
    };
    this.#store.on(eventName, collectSubscription, subscription);
    this.#forgetResolutionsFor(subscription);

    // Idempotent by construction: `off` matches this record as context, so a second call finds nothing
    // to remove and can never take out another subscription of the same listener.
    return () => {
      this.#store.off(eventName, collectSubscription, subscription);
      this.#forgetResolutionsFor(subscription);
    };
  }

  /**
   * Runs the listeners matching `eventName` one after another and resolves when they have all
   * finished, or when a listener stopped the `InterceptionSlot` found under `payload.slot`. The
   * listener list is fixed when the dispatch starts.
   *
   * @param eventName The event's name, without wildcards.
   * @param payload Passed to every listener; `{}` when omitted.
   * @returns A promise that never rejects because of a listener.
   * @throws EventDispatcherError `INVALID_EVENT_NAME` (as a rejection) for a malformed name.
   * @example
   * const slot = new InterceptionSlot();
   * await dispatcher.dispatch('tool.executing', { event, slot });
   * if (slot.hasResult()) return slot.getResult();
   */
  dispatch(eventName: string, payload?: EventPayload): Promise<void> {
    let listeners: ResolvedListeners;
    try {
      listeners = this.#listenersFor(eventName);
    } catch (error) {
      return Promise.reject(error);
    }
    // The common case on the tool-call hot path: nobody listens, so nothing is allocated.
    if (listeners.length === 0) return SETTLED;
    return this.#runListeners(eventName, payload ?? {}, listeners);
  }

  /**
   * Fire-and-forget delivery for notifications that cannot be intercepted. With an `asyncSink`
   * wired the event goes only to the sink; otherwise the matching listeners run on the next
   * microtask, isolated exactly as in {@link EventDispatcher.dispatch}. The event is never dropped.
   *
   * @param eventName The event's name, without wildcards.
   * @param payload Passed to the sink or the listeners; `{}` when omitted. It must not carry an
   *   `InterceptionSlot`: nobody would read a slot stopped after `notify()` returned.
   * @throws EventDispatcherError `SLOT_IN_ASYNC_DISPATCH` or `INVALID_EVENT_NAME`, before
   *   anything runs.
   * @example
   * dispatcher.notify('verification.requested', { event });
   */
  notify(eventName: string, payload?: EventPayload): void {
    assertEventName(eventName);
    const body = payload ?? {};
    if (InterceptionSlot.isInstance(body.slot)) {
      throw new EventDispatcherError(
        `Cannot dispatch '${eventName}' asynchronously with an InterceptionSlot in the payload: ` +
          'a stop() or shortCircuit() made after notify() returns is read by nobody, so a veto or ' +
          'cached answer would be silently lost. Use dispatch() and await it, or leave the slot out.',
        'SLOT_IN_ASYNC_DISPATCH',
      );
    }

    const sink = this.#asyncSink;
    if (sink !== undefined) {
      this.#handOverToSink(sink, eventName, body);
      return;
    }

    const listeners = this.#listenersFor(eventName);
    if (listeners.length === 0) return;
    queueMicrotask(() => {
      void this.#runListeners(eventName, body, listeners);
    });
  }

  /**
   * True when at least one exact or wildcard subscription matches `eventName`. Cheap enough to
   * call before building an event: after the first call for a name it is a map lookup.
   *
   * @throws EventDispatcherError `INVALID_EVENT_NAME` for a malformed name.
   */
  hasSubscribers(eventName: string): boolean {
    return this.#listenersFor(eventName).length > 0;
  }

  /**
   * The listeners matching `eventName`, exact and wildcard, in the order `dispatch` runs them.
   * The returned array is frozen.
   *
   * @throws EventDispatcherError `INVALID_EVENT_NAME` for a malformed name.
   */
  getSubscribers(eventName: string): readonly EventListener[] {
    return this.#listenersFor(eventName);
  }

  #listenersFor(eventName: string): ResolvedListeners {
    const cached = this.#resolved.get(eventName);
    if (cached !== undefined) return cached;
    // Only names that passed the grammar are ever cached, so a hit needs no validation.
    assertEventName(eventName);
    const listeners = this.#resolveListeners(eventName);
    if (this.#resolved.size >= MAX_CACHED_NAMES) this.#resolved.clear();
    this.#resolved.set(eventName, listeners);
    return listeners;
  }

  #resolveListeners(eventName: string): ResolvedListeners {
    const found: Subscription[] = [];
    this.#store.emit(eventName, found);
    for (const pattern of this.#store.eventNames()) {
      if (isWildcardPattern(pattern) && matchesWildcardPattern(pattern, eventName)) {
        this.#store.emit(pattern, found);
      }
    }
    if (found.length === 0) return NO_LISTENERS;
    found.sort(compareSubscriptions);
    return Object.freeze(found.map((subscription) => subscription.listener));
  }

  /** Drops the cached lists a new or removed subscription would change; other names keep theirs. */
  #forgetResolutionsFor(subscription: Subscription): void {
    if (!subscription.wildcard) {
      this.#resolved.delete(subscription.pattern);
      return;
    }
    for (const eventName of this.#resolved.keys()) {
      if (matchesWildcardPattern(subscription.pattern, eventName)) this.#resolved.delete(eventName);
    }
  }

  async #runListeners(eventName: string, payload: EventPayload, listeners: ResolvedListeners): Promise<void> {
    const slot = InterceptionSlot.isInstance(payload.slot) ? payload.slot : undefined;
    for (let index = 0; index < listeners.length; index++) {
      // Called through a local so the listener's `this` is undefined, not the cached array.
      const listener = listeners[index]!;
      try {
        const outcome = listener(eventName, payload);
        // Awaiting only real promises keeps a run of synchronous listeners inside one tick.
        if (isThenable(outcome)) await outcome;
      } catch (error) {
        this.#report(`[EventDispatcher] Handler error for ${eventName}: `, eventName, error);
      }
      // Checked whether or not the listener threw: one that stops the slot and then throws has
      // still decided the call: the stop counts and the dispatch ends.
      if (slot?.isStopped()) return;
    }
  }

  #handOverToSink(sink: AsyncEventSink, eventName: string, payload: EventPayload): void {
    try {
      const outcome = sink(eventName, payload);
      if (isThenable(outcome)) {
        outcome.then(undefined, (error: unknown) => {
          this.#report(`[EventDispatcher] Async sink error for ${eventName}: `, eventName, error);
        });
      }
    } catch (error) {
      this.#report(`[EventDispatcher] Async sink error for ${eventName}: `, eventName, error);
    }
  }

  #report(prefix: string, eventName: string, error: unknown): void {
    try {
      const written: unknown = this.#logger.error({ event: eventName, err: error }, prefix + describeThrownValue(error));
      // An async logger's rejection (a log shipper offline) must not go unhandled and end the process.
      if (isThenable(written)) written.then(undefined, ignoreRejection);
    } catch {
      // A broken logger must not turn an isolated failure into a rejected dispatch or a throwing
      // notify: a throwing listener must never escape ToolRegistry.call().
    }
  }
}
