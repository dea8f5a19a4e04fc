import { MilpaError } from '../errors/milpa-error.js';

/** Options of {@link ExpiringMap}. */
export interface ExpiringMapOptions<K, V> {
  /**
   * The clock, in epoch milliseconds, read once per operation. Default `Date.now()` (read at each
   * call, so fake timers apply). A store that already read the time for the same operation can
   * pass a function returning that reading and save the second clock read.
   */
  readonly now?: () => number;
  /**
   * Called with each entry that is removed because it expired, whether found on access or by a
   * sweep; never for `delete()` or `clear()`. The entry is already gone when it runs; a throw
   * reaches the caller of the operation that removed the entry, and the map stays consistent.
   */
  readonly onExpire?: (key: K, value: V) => void;
  /** Operations between two automatic sweep steps, a whole number ≥ 1. Default 1: every operation. */
  readonly sweepInterval?: number;
  /**
   * The most expired entries one sweep step removes, a whole number ≥ 1 or `Infinity`. Default 256:
   * at 100,000 entries a step of 256 costs well under a millisecond, and a store operation that
   * makes two map operations still stays far from a 5 ms pause after a mass expiry.
   */
  readonly sweepLimit?: number;
}

interface Entry<K, V> {
  readonly key: K;
  value: V;
  /** The first epoch millisecond at which the entry is gone; Infinity when it never expires. */
  expiresAt: number;
  /** The entry's position in the expiry heap, or -1 while it never expires. */
  index: number;
}

// Each removal is a heap step over entries scattered in memory (about a microsecond at 100k
// entries on a busy machine), so the step is kept small; the map still drains expired entries
// hundreds of times faster than any caller can add them.
const DEFAULT_SWEEP_LIMIT = 256;

function invalid(message: string): MilpaError {
  return new MilpaError(message, { code: 'INVALID_ARGUMENT' });
}

function requireCount(name: string, value: unknown, allowInfinity: boolean): number {
  if (typeof value === 'number' && value >= 1 && (Number.isInteger(value) || (allowInfinity && value === Number.POSITIVE_INFINITY))) {
    return value;
  }
  throw invalid(`ExpiringMap ${name} must be a whole number of at least 1${allowInfinity ? ' or Infinity' : ''}, got ${String(value)}.`);
}

/**
 * A `Map` whose entries expire: the in-memory stores of Milpa (confirmation tokens, rate-limit
 * windows, verification records, MCP sessions) all keep their entries in one. It is public so that
 * a host's own in-memory store can expire entries the same bounded way.
 *
 * - Each entry has its own expiry, an absolute time in epoch milliseconds: the entry is gone from
 *   that millisecond on (`now >= expiresAt`), or never when the expiry is `null`.
 * - Expiry is lazy: an expired entry is never returned, and it is removed when it is looked up.
 * - Expiry is bounded: the entries are also kept in a heap ordered by expiry, and every operation
 *   (or every `sweepInterval` operations) removes up to `sweepLimit` of the expired ones, earliest
 *   first. No operation scans the live entries, and none removes more than `sweepLimit` entries,
 *   so a mass expiry is cleared over the next operations rather than in one long pause. An entry
 *   costs O(log n) when it is set and when it is removed.
 * - `size` and `entries()` include expired entries not yet removed; `sweep()` removes them on demand.
 *
 * Everything is synchronous, so each operation is atomic within the process.
 *
 * @example
 * const sessions = new ExpiringMap<string, Session>({ onExpire: (_id, session) => session.close() });
 * sessions.set(id, session, Date.now() + 30 * 60_000);
 * sessions.get(id); // the session until 30 minutes have passed, then undefined
 */
export class ExpiringMap<K, V> {
  readonly #entries = new Map<K, Entry<K, V>>();
  /** Entries that can expire, as a binary min-heap on `expiresAt`. */
  readonly #heap: Entry<K, V>[] = [];
  readonly #now: () => number;
  readonly #onExpire: ((key: K, value: V) => void) | undefined;
  readonly #sweepInterval: number;
  readonly #sweepLimit: number;
  #operationsSinceSweep = 0;

  /** @throws MilpaError `INVALID_ARGUMENT` for a `sweepInterval` or `sweepLimit` that is not a whole number ≥ 1. */
  constructor(options: ExpiringMapOptions<K, V> = {}) {
    this.#now = options.now ?? (() => Date.now());
    this.#onExpire = options.onExpire;
    this.#sweepInterval = requireCount('sweepInterval', options.sweepInterval ?? 1, false);
    this.#sweepLimit = requireCount('sweepLimit', options.sweepLimit ?? DEFAULT_SWEEP_LIMIT, true);
  }

  /** The number of entries held, including expired ones not removed yet. */
  get size(): number {
    return this.#entries.size;
  }

  /** The value of `key`, or undefined when there is none or it has expired (it is removed then). */
  get(key: K): V | undefined {
    const entry = this.#live(key);
    return entry === undefined ? undefined : entry.value;
  }

  /** True when `key` has a value that has not expired. */
  has(key: K): boolean {
    return this.#live(key) !== undefined;
  }

  /**
   * Sets `key` to `value`, gone from `expiresAt` (epoch milliseconds) on, or never for `null`.
   * Setting an existing key replaces its value and its expiry.
   *
   * @throws MilpaError `INVALID_ARGUMENT` when `expiresAt` is neither a number nor null, or is NaN.
   */
  set(key: K, value: V, expiresAt: number | null): this {
    if (expiresAt !== null && (typeof expiresAt !== 'number' || Number.isNaN(expiresAt))) {
      throw invalid(`ExpiringMap expiry must be a number of epoch milliseconds or null, got ${String(expiresAt)}.`);
    }
    const at = expiresAt ?? Number.POSITIVE_INFINITY;
    this.#tick(this.#now());
    const entry = this.#entries.get(key);
    if (entry === undefined) {
      const created: Entry<K, V> = { key, value, expiresAt: at, index: -1 };
      this.#entries.set(key, created);
      if (at !== Number.POSITIVE_INFINITY) this.#push(created);
    } else {
      entry.value = value;
      this.#reschedule(entry, at);
    }
    return this;
  }

  /** Removes `key`; true when it was held (expired or not). Does not call `onExpire`. */
  delete(key: K): boolean {
    this.#tick(this.#now());
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    this.#remove(entry);
    return true;
  }

  /** Removes every entry without calling `onExpire`. */
  clear(): void {
    this.#entries.clear();
    this.#heap.length = 0;
    this.#operationsSinceSweep = 0;
  }

  /**
   * Removes up to `limit` expired entries, earliest expiry first, and returns how many it removed.
   * Operations sweep on their own; call this from a timer when expired entries hold resources that
   * must be released even while the map is idle.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a limit that is not a whole number ≥ 1 or `Infinity`.
   */
  sweep(limit: number = this.#sweepLimit): number {
    return this.#sweepExpired(this.#now(), requireCount('sweep limit', limit, true));
  }

  /**
   * Every entry held, in insertion order, expired ones not removed yet included. Deleting entries
   * while iterating is safe.
   */
  *entries(): IterableIterator<[K, V]> {
    for (const [key, entry] of this.#entries) yield [key, entry.value];
  }

  #live(key: K): Entry<K, V> | undefined {
    const now = this.#now();
    this.#tick(now);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now) {
      this.#expire(entry);
      return undefined;
    }
    return entry;
  }

  #tick(now: number): void {
    this.#operationsSinceSweep += 1;
    if (this.#operationsSinceSweep < this.#sweepInterval) return;
    this.#operationsSinceSweep = 0;
    this.#sweepExpired(now, this.#sweepLimit);
  }

  #sweepExpired(now: number, limit: number): number {
    let removed = 0;
    while (removed < limit) {
      const earliest = this.#heap[0];
      if (earliest === undefined || earliest.expiresAt > now) break;
      this.#expire(earliest);
      removed += 1;
    }
    return removed;
  }

  #expire(entry: Entry<K, V>): void {
    this.#remove(entry);
    this.#onExpire?.(entry.key, entry.value);
  }

  #remove(entry: Entry<K, V>): void {
    this.#entries.delete(entry.key);
    if (entry.index !== -1) this.#unheap(entry);
  }

  #reschedule(entry: Entry<K, V>, expiresAt: number): void {
    const previous = entry.expiresAt;
    entry.expiresAt = expiresAt;
    if (entry.index === -1) {
      if (expiresAt !== Number.POSITIVE_INFINITY) this.#push(entry);
    } else if (expiresAt === Number.POSITIVE_INFINITY) {
      this.#unheap(entry);
    } else if (expiresAt < previous) {
      this.#siftUp(entry.index);
    } else if (expiresAt > previous) {
      this.#siftDown(entry.index);
    }
  }

  #push(entry: Entry<K, V>): void {
    entry.index = this.#heap.length;
    this.#heap.push(entry);
    this.#siftUp(entry.index);
  }

  #unheap(entry: Entry<K, V>): void {
    const heap = this.#heap;
    const index = entry.index;
    const last = heap.pop() as Entry<K, V>;
    entry.index = -1;
    if (last === entry) return;
    heap[index] = last;
    last.index = index;
    // The entry moved into the hole may belong above or below it.
    this.#siftUp(index);
    this.#siftDown(last.index);
  }

  #siftUp(start: number): void {
    const heap = this.#heap;
    const entry = heap[start] as Entry<K, V>;
    let index = start;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex] as Entry<K, V>;
      if (parent.expiresAt <= entry.expiresAt) break;
      heap[index] = parent;
      parent.index = index;
      index = parentIndex;
    }
    heap[index] = entry;
    entry.index = index;
  }

  #siftDown(start: number): void {
    const heap = this.#heap;
    const length = heap.length;
    const entry = heap[start] as Entry<K, V>;
    let index = start;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      let child = left;
      if (right < length && (heap[right] as Entry<K, V>).expiresAt < (heap[left] as Entry<K, V>).expiresAt) child = right;
      const smaller = heap[child] as Entry<K, V>;
      if (smaller.expiresAt >= entry.expiresAt) break;
      heap[index] = smaller;
      smaller.index = index;
      index = child;
    }
    heap[index] = entry;
    entry.index = index;
  }
}
