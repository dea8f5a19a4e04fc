import {
  ExpiringMap,
  completeIdempotencyRecord,
  decideIdempotencyBegin,
  mayReleaseIdempotencyRecord,
  type IdempotencyBegin,
  type IdempotencyClaim,
  type IdempotencyRecord,
  type IdempotencyStore,
  type ToolResultJson,
} from '@milpa/core';

/** Options of {@link InMemoryIdempotencyStore}. */
export interface InMemoryIdempotencyStoreOptions {
  /** The clock, in epoch milliseconds, for forgetting keys; default `Date.now`. */
  readonly now?: () => number;
}

/**
 * The in-memory {@link IdempotencyStore}: idempotency keys of one process. Every operation is
 * synchronous, so `begin` is atomic: however many calls race with one key, exactly one starts it.
 * A key is forgotten (and swept lazily) at its record's `forgetAt`.
 *
 * @example
 * const registry = new ToolRegistry({ idempotencyStore: new InMemoryIdempotencyStore() });
 * await registry.call('create_invoice', args, context, { idempotencyKey: 'order-7-invoice' });
 */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  readonly #records: ExpiringMap<string, IdempotencyRecord>;

  constructor(options: InMemoryIdempotencyStoreOptions = {}) {
    const now = options.now ?? (() => Date.now());
    this.#records = new ExpiringMap({ now });
  }

  /** Claims the key or says why not; see `IdempotencyBegin`. Never throws. */
  begin(claim: IdempotencyClaim): IdempotencyBegin {
    const { answer, next } = decideIdempotencyBegin(this.#records.get(claim.key) ?? null, claim);
    if (next !== null) this.#records.set(claim.key, next, next.forgetAt.getTime());
    return answer;
  }

  /** Keeps `result` as the key's answer when `owner` holds it in flight. Never throws. */
  complete(key: string, owner: string, result: ToolResultJson, at: Date, retentionMs: number): boolean {
    const next = completeIdempotencyRecord(this.#records.get(key) ?? null, owner, result, at, retentionMs);
    if (next === null) return false;
    this.#records.set(key, next, next.forgetAt.getTime());
    return true;
  }

  /** Frees the key when `owner` holds it in flight. Never throws. */
  release(key: string, owner: string): boolean {
    if (!mayReleaseIdempotencyRecord(this.#records.get(key) ?? null, owner, new Date(0))) return false;
    this.#records.delete(key);
    return true;
  }

  /** The record of `key`, or null when unknown or forgotten. */
  get(key: string): IdempotencyRecord | null {
    return this.#records.get(key) ?? null;
  }

  /** The number of keys kept, forgotten ones included until swept. */
  size(): number {
    return this.#records.size;
  }
}
