import type { VerificationStore } from '@milpa/core';
import { toApprovalItem, type ApprovalItem } from './approval-item.js';

/**
 * The verification requests the console shows: the ids it learned of (from events, `track`, or
 * the host's `listRequestIds`), remembered up to `maxTracked` (oldest forgotten first), read from
 * the store as {@link ApprovalItem}s. An id whose record is gone or is not an approval is dropped.
 */
export class ApprovalTracker {
  readonly #store: VerificationStore;
  readonly #listRequestIds: (() => Iterable<string> | Promise<Iterable<string>>) | undefined;
  readonly #maxTracked: number;
  readonly #tracked = new Set<string>();

  /** A tracker over `store`, asking `listRequestIds` (when given) for ids opened elsewhere. */
  constructor(
    store: VerificationStore,
    listRequestIds: (() => Iterable<string> | Promise<Iterable<string>>) | undefined,
    maxTracked: number,
  ) {
    this.#store = store;
    this.#listRequestIds = listRequestIds;
    this.#maxTracked = maxTracked;
  }

  /** Remembers `id` (ignored when empty or already known). */
  track(id: string): void {
    if (typeof id !== 'string' || id === '' || this.#tracked.has(id)) return;
    this.#tracked.add(id);
    if (this.#tracked.size > this.#maxTracked) {
      const oldest = this.#tracked.values().next().value;
      if (oldest !== undefined) this.#tracked.delete(oldest);
    }
  }

  /** Every tracked (and listed) approval, as it stands now. */
  async loadItems(): Promise<ApprovalItem[]> {
    const ids = new Set(this.#tracked);
    if (this.#listRequestIds !== undefined) for (const id of await this.#listRequestIds()) if (typeof id === 'string') ids.add(id);
    const now = Date.now();
    const items: ApprovalItem[] = [];
    for (const id of ids) {
      const record = await this.#store.get(id);
      if (record === null) {
        this.#tracked.delete(id);
        continue;
      }
      const item = toApprovalItem(record, now);
      if (item === null) this.#tracked.delete(id);
      else {
        this.track(id);
        items.push(item);
      }
    }
    return items;
  }

  /** The approval `id` as it stands now (tracked from then on), or null. */
  async loadItem(id: string): Promise<ApprovalItem | null> {
    const record = await this.#store.get(id);
    const item = record === null ? null : toApprovalItem(record, Date.now());
    if (item !== null) this.track(id);
    return item;
  }
}
