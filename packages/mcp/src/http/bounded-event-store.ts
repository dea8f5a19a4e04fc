import { MilpaError } from '@milpa/core';
import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * Default most events one store keeps. A store serves one session and only has to bridge the gap
 * between a stream dropping and its client reconnecting (a retry interval, typically a second or
 * a few): 1,000 events cover a long call's progress and log messages at tens per second over that
 * window, while keeping the per-event bookkeeping of a session small.
 */
const DEFAULT_MAX_EVENTS = 1000;

/**
 * Default most bytes one store keeps (the UTF-8 size of the stored messages' JSON): 1 MiB, enough
 * to replay an ordinary tool result with its notifications, small enough that a thousand open
 * sessions stay within a gibibyte at worst.
 */
const DEFAULT_MAX_BYTES = 1024 * 1024;

/** Options of {@link BoundedEventStore}. */
export interface BoundedEventStoreOptions {
  /** The most events kept; the oldest go first. A whole number ≥ 1. Default 1,000. */
  readonly maxEvents?: number;
  /** The most bytes kept (UTF-8 size of the messages' JSON); the oldest go first. A whole number ≥ 1. Default 1 MiB. */
  readonly maxBytes?: number;
  /**
   * A budget shared with other stores (every session of one server): when the stores together
   * hold more than its bytes, the oldest events of all of them go first.
   */
  readonly budget?: ReplayBudget;
}

/**
 * Bytes of resumable-stream events kept by several {@link BoundedEventStore}s together (every
 * session of one server), so the server's replay memory has one bound whatever the number of
 * sessions: past it, the oldest events across all stores are evicted first (so the streams idle the
 * longest lose their replay first). A store whose session ends gives its bytes back with `dispose()`.
 */
export class ReplayBudget {
  readonly #maxBytes: number;
  /** Every event kept under this budget, in the order stored: the first is the oldest. */
  readonly #events = new Map<object, { readonly store: BoundedEventStore; readonly bytes: number }>();
  #bytes = 0;

  /** @throws MilpaError `INVALID_ARGUMENT` when `maxBytes` is not a whole number ≥ 1. */
  constructor(maxBytes: number) {
    this.#maxBytes = checkBound('budget maxBytes', maxBytes, maxBytes);
  }

  /** Bytes kept by every store under this budget. */
  get byteSize(): number {
    return this.#bytes;
  }

  /** Counts a stored event; evicts the oldest events of any store while the total is over the bound. @internal */
  add(event: object, store: BoundedEventStore, bytes: number): void {
    this.#events.set(event, { store, bytes });
    this.#bytes += bytes;
    while (this.#bytes > this.#maxBytes) {
      const oldest = this.#events.values().next().value;
      if (oldest === undefined) break;
      oldest.store.evictOldest();
    }
  }

  /** Stops counting an event its store forgot. @internal */
  release(event: object): void {
    const entry = this.#events.get(event);
    if (entry === undefined) return;
    this.#events.delete(event);
    this.#bytes -= entry.bytes;
  }
}

interface StoredEvent {
  readonly id: EventId;
  readonly streamId: StreamId;
  /** Position in the whole store, increasing: orders events and makes ids unique. */
  readonly seq: number;
  /** `seq` of the event stored just before this one on the same stream (0 for none): proves a replay has no gap. */
  readonly previousSeq: number;
  /** The message as JSON: what the SSE `data:` line carries, and a copy no later mutation reaches. */
  readonly json: string;
  readonly bytes: number;
}

/** A stream's retained events, oldest first, and the `seq` of the last event stored on it. */
interface StreamRecord {
  readonly events: StoredEvent[];
  lastSeq: number;
}

const encoder = new TextEncoder();

function checkBound(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new MilpaError(`BoundedEventStore ${name} must be a whole number of at least 1, got ${String(value)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return value;
}

/**
 * The in-memory, bounded `EventStore` that makes Streamable HTTP streams resumable: the SDK
 * transport stores every message it sends on an SSE stream (and the empty priming event `{}` that
 * opens one), and a client that reconnects with `Last-Event-ID` gets that stream's later events
 * replayed, in order. One store serves one session.
 *
 * Bounded by event count and by bytes: past either bound the oldest events are evicted first. So a
 * stream always keeps an unbroken run of its newest events, and resuming from an id the store no
 * longer holds (evicted, never issued, malformed, another session's) is refused — the transport
 * answers `400 Invalid event ID format` — rather than replaying with a silent gap or another
 * stream's events. An event larger than `maxBytes` on its own is sent live but not kept, and its
 * stream's earlier events are forgotten with it, for the same reason.
 *
 * Event ids are `<streamId>_<seq>`: `seq` increases over the whole store, so ids are unique and
 * ordered; the SDK's request-stream ids are random UUIDs, so ids of one stream cannot be guessed
 * from another's. An id is only ever looked up whole, never parsed, so no header value can reach
 * another stream's events.
 *
 * @example
 * const transport = new StreamableHTTPServerTransport({
 *   sessionIdGenerator: () => randomUUID(),
 *   eventStore: new BoundedEventStore({ maxEvents: 500, maxBytes: 512 * 1024 }),
 *   retryInterval: 1000,
 * });
 */
export class BoundedEventStore implements EventStore {
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  readonly #budget: ReplayBudget | null;
  /** Every kept event by id, in insertion order: the first entry is the oldest. */
  readonly #events = new Map<EventId, StoredEvent>();
  readonly #streams = new Map<StreamId, StreamRecord>();
  #bytes = 0;
  #seq = 0;

  /**
   * Creates an empty store.
   * @throws MilpaError `INVALID_ARGUMENT` when `maxEvents` or `maxBytes` is not a whole number ≥ 1.
   */
  constructor(options: BoundedEventStoreOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new MilpaError(`BoundedEventStore options must be an object, got ${String(options)}.`, { code: 'INVALID_ARGUMENT' });
    }
    this.#maxEvents = checkBound('maxEvents', options.maxEvents, DEFAULT_MAX_EVENTS);
    this.#maxBytes = checkBound('maxBytes', options.maxBytes, DEFAULT_MAX_BYTES);
    if (options.budget !== undefined && !(options.budget instanceof ReplayBudget)) {
      throw new MilpaError('BoundedEventStore budget must be a ReplayBudget.', { code: 'INVALID_ARGUMENT' });
    }
    this.#budget = options.budget ?? null;
  }

  /** Forgets every event, giving their bytes back to the shared budget: call it when the session ends. */
  dispose(): void {
    for (const event of [...this.#events.values()]) this.#forget(event);
    this.#streams.clear();
  }

  /** Evicts the oldest event kept (the shared budget calls it). @internal */
  evictOldest(): void {
    const oldest = this.#events.values().next().value;
    if (oldest === undefined) return;
    this.#forget(oldest);
    const stream = this.#streams.get(oldest.streamId) as StreamRecord;
    // The oldest event of the store is the oldest of its stream, so it is the head of that list.
    stream.events.shift();
    if (stream.events.length === 0) this.#streams.delete(oldest.streamId);
  }

  /** Number of events kept. */
  get size(): number {
    return this.#events.size;
  }

  /** Bytes kept: the UTF-8 size of the kept messages' JSON. */
  get byteSize(): number {
    return this.#bytes;
  }

  /**
   * Keeps `message` as the next event of `streamId` and returns its id, evicting the oldest events
   * when a bound is passed.
   * @throws MilpaError `INVALID_ARGUMENT` when `streamId` is not a non-empty string or `message` cannot be written as JSON.
   */
  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    if (typeof streamId !== 'string' || streamId === '') {
      throw new MilpaError('BoundedEventStore streamId must be a non-empty string.', { code: 'INVALID_ARGUMENT' });
    }
    let json: string | undefined;
    try {
      json = JSON.stringify(message) as string | undefined;
    } catch (error) {
      throw new MilpaError('BoundedEventStore cannot store a message that is not JSON.', { code: 'INVALID_ARGUMENT', cause: error });
    }
    if (json === undefined)
      throw new MilpaError('BoundedEventStore cannot store a message that is not JSON.', { code: 'INVALID_ARGUMENT' });

    this.#seq += 1;
    const seq = this.#seq;
    const id = `${streamId}_${seq}`;
    const bytes = encoder.encode(json).byteLength;
    const stream = this.#streams.get(streamId);
    if (bytes > this.#maxBytes) {
      // Not kept: a resume from before it would skip it unnoticed, so the stream's earlier events go too.
      if (stream !== undefined) {
        for (const event of stream.events) this.#forget(event);
        this.#streams.delete(streamId);
      }
      return id;
    }
    const event: StoredEvent = { id, streamId, seq, previousSeq: stream?.lastSeq ?? 0, json, bytes };
    this.#events.set(id, event);
    this.#bytes += bytes;
    if (stream === undefined) this.#streams.set(streamId, { events: [event], lastSeq: seq });
    else {
      stream.events.push(event);
      stream.lastSeq = seq;
    }
    this.#evict();
    // Counted once the store's own bounds hold; the shared budget may then evict across stores.
    if (this.#events.has(id)) this.#budget?.add(event, this, bytes);
    return id;
  }

  /** The stream of a kept event; undefined for any id the store does not hold, which the transport answers with 400. */
  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#lookUp(eventId)?.streamId;
  }

  /**
   * Sends the events of `lastEventId`'s stream stored after it, oldest first, awaiting each `send`,
   * and returns the stream's id. Events stored while it replays are sent too.
   * @throws MilpaError `EVENT_NOT_FOUND` when the store does not hold `lastEventId`, and
   *   `EVENT_GAP` when events after it were evicted during the replay (never a silent gap).
   */
  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.#lookUp(lastEventId);
    if (last === undefined) {
      throw new MilpaError('No event with that id is kept: it was evicted or never issued.', { code: 'EVENT_NOT_FOUND' });
    }
    const { streamId } = last;
    let cursor = last.seq;
    for (;;) {
      // Looked up afresh each time: `send` awaits, and events may be stored or evicted meanwhile.
      const next = this.#firstAfter(streamId, cursor);
      if (next === undefined) return streamId;
      if (next.previousSeq !== cursor) {
        throw new MilpaError('Events of the stream were evicted while it was being replayed.', { code: 'EVENT_GAP' });
      }
      await send(next.id, JSON.parse(next.json) as JSONRPCMessage);
      cursor = next.seq;
    }
  }

  #lookUp(eventId: unknown): StoredEvent | undefined {
    // A Map, not an object: ids such as `__proto__` or `constructor` are just absent keys.
    return typeof eventId === 'string' ? this.#events.get(eventId) : undefined;
  }

  #firstAfter(streamId: StreamId, seq: number): StoredEvent | undefined {
    const events = this.#streams.get(streamId)?.events;
    if (events === undefined) return undefined;
    let low = 0;
    let high = events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((events[middle] as StoredEvent).seq <= seq) low = middle + 1;
      else high = middle;
    }
    return events[low];
  }

  #evict(): void {
    while (this.#events.size > this.#maxEvents || this.#bytes > this.#maxBytes) this.evictOldest();
  }

  #forget(event: StoredEvent): void {
    this.#events.delete(event.id);
    this.#bytes -= event.bytes;
    this.#budget?.release(event);
  }
}
