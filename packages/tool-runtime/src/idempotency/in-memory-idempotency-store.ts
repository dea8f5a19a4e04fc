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
import { idempotencyRecordToJson, type IdempotencyRecordJson } from '@milpa/core/kit';

/** Options of {@link InMemoryIdempotencyStore}. */
export interface InMemoryIdempotencyStoreOptions {
  /** The clock, in epoch milliseconds, for forgetting keys; default `Date.now`. */
  readonly now?: () => number;
}

/**
 * What the store keeps per completed key: the record as JSON data (`idempotencyRecordToJson`, its
 * times as epoch milliseconds). A key is kept for a day by default and a busy process holds hundreds
 * of thousands, so every object kept per key is paid for at each garbage collection: this holds one
 * object where a record holds four (itself and three Dates). A key in flight keeps its record as it
 * is: it is read back when its call completes, mostly before the next collection.
 */
type KeptRecord = IdempotencyRecordJson;

/** The record `kept` stands for, as the rules read it and `get` answers it. */
function recordOf(key: string, kept: KeptRecord | IdempotencyRecord): IdempotencyRecord {
  const { startedAt, leaseExpiresAt, forgetAt } = kept;
  // A record in flight is kept as it is (its times are Dates).
  if (typeof startedAt !== 'number' || typeof leaseExpiresAt !== 'number' || typeof forgetAt !== 'number') return kept as IdempotencyRecord;
  return Object.freeze({
    key,
    toolName: kept.toolName,
    principal: kept.principal,
    argumentsDigest: kept.argumentsDigest,
    state: kept.state,
    owner: kept.owner,
    result: kept.result,
    startedAt: new Date(startedAt),
    leaseExpiresAt: new Date(leaseExpiresAt),
    forgetAt: new Date(forgetAt),
  });
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
  readonly #records: ExpiringMap<string, KeptRecord | IdempotencyRecord>;

  constructor(options: InMemoryIdempotencyStoreOptions = {}) {
    const now = options.now ?? (() => Date.now());
    this.#records = new ExpiringMap({ now });
  }

  /** Claims the key or says why not; see `IdempotencyBegin`. Never throws. */
  begin(claim: IdempotencyClaim): IdempotencyBegin {
    const { answer, next } = decideIdempotencyBegin(this.#recordAt(claim.key), claim);
    if (next !== null) this.#records.set(claim.key, next, next.forgetAt.getTime());
    return answer;
  }

  /** Keeps `result` as the key's answer when `owner` holds it in flight. Never throws. */
  complete(key: string, owner: string, result: ToolResultJson, at: Date, retentionMs: number): boolean {
    const next = completeIdempotencyRecord(this.#recordAt(key), owner, result, at, retentionMs);
    if (next === null) return false;
    this.#records.set(key, idempotencyRecordToJson(next), next.forgetAt.getTime());
    return true;
  }

  /** Frees the key when `owner` holds it in flight. Never throws. */
  release(key: string, owner: string): boolean {
    if (!mayReleaseIdempotencyRecord(this.#recordAt(key), owner, new Date(0))) return false;
    this.#records.delete(key);
    return true;
  }

  /** The record of `key`, or null when unknown or forgotten. */
  get(key: string): IdempotencyRecord | null {
    return this.#recordAt(key);
  }

  /** The number of keys kept, forgotten ones included until swept. */
  size(): number {
    return this.#records.size;
  }

  #recordAt(key: string): IdempotencyRecord | null {
    const kept = this.#records.get(key);
    return kept === undefined ? null : recordOf(key, kept);
  }
}
