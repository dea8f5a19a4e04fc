import {
  completeIdempotencyRecord,
  decideIdempotencyBegin,
  mayReleaseIdempotencyRecord,
  type IdempotencyBegin,
  type IdempotencyClaim,
  type IdempotencyRecord,
  type IdempotencyStore,
  type ToolResultJson,
} from '@milpa/core';
import { fromJsonText, toJsonText } from '../connection/json-text.js';
import { malformedData, type RecordUpdate, type StoreConnection } from '../connection/store-connection.js';
import { StoredFields } from '../connection/stored-fields.js';

function encode(record: IdempotencyRecord): string {
  // The record as the core rules built it, its three instants as epoch milliseconds.
  const times = {
    startedAt: record.startedAt.getTime(),
    leaseExpiresAt: record.leaseExpiresAt.getTime(),
    forgetAt: record.forgetAt.getTime(),
  };
  return toJsonText({ ...record, ...times }, 'An idempotency record');
}

function decodeResult(value: unknown, malformed: (what: string) => ReturnType<typeof malformedData>): ToolResultJson | null {
  if (value === null) return null;
  const fields = StoredFields.of(value, malformed);
  fields.flag('success');
  fields.textOrNull('message');
  fields.textOrNull('error');
  fields.object('meta');
  return value as ToolResultJson;
}

function decode(key: string, text: string): IdempotencyRecord {
  const malformed = (what: string) => malformedData('idempotency', `idempotency key '${key}': ${what}`);
  const fields = StoredFields.of(fromJsonText(text), malformed);
  const state = fields.oneOf('state', ['in_flight', 'completed'] as const);
  const result = decodeResult(fields.raw('result'), malformed);
  if ((state === 'completed') !== (result !== null)) throw malformed('a result that does not match its state');
  return Object.freeze({
    key: fields.text('key'),
    toolName: fields.text('toolName'),
    principal: fields.textOrNull('principal'),
    argumentsDigest: fields.text('argumentsDigest'),
    state,
    owner: fields.text('owner'),
    result,
    startedAt: fields.time('startedAt'),
    leaseExpiresAt: fields.time('leaseExpiresAt'),
    forgetAt: fields.time('forgetAt'),
  });
}

/**
 * The {@link IdempotencyStore} over Redis: idempotency keys and the results they answer are shared
 * by every process that uses the Redis server, so a retry that reaches another worker (on any
 * machine) gets the first call's result instead of running again.
 *
 * Each key is one Redis key, `<prefix>idempotency:<key>`, holding its record as JSON, with a TTL on
 * the server that ends at the record's `forgetAt`. `begin`, `complete` and `release` each read the
 * record, apply the rules every store applies (`decideIdempotencyBegin` and its siblings), and
 * write the next state through one compare-and-set Lua script that succeeds only if the key still
 * holds what was read; a call that loses the race reads again and decides anew. However many calls
 * race with one key, in one process or many, exactly one starts it. Results are stored as JSON and
 * must be plain JSON data.
 *
 * Get one from {@link RedisStores.connect}.
 *
 * @example
 * const stores = await RedisStores.connect({ url: 'redis://127.0.0.1:6379' });
 * const registry = new ToolRegistry({ idempotencyStore: stores.idempotency });
 */
export class RedisIdempotencyStore implements IdempotencyStore {
  readonly #connection: StoreConnection;

  /** @internal Use {@link RedisStores.connect}. */
  constructor(connection: StoreConnection) {
    this.#connection = connection;
  }

  /**
   * Claims the key or says why not, atomically.
   *
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the key's data is malformed.
   */
  async begin(claim: IdempotencyClaim): Promise<IdempotencyBegin> {
    return this.#update(claim.key, (record) => {
      const { answer, next } = decideIdempotencyBegin(record, claim);
      return next === null ? { answer } : { answer, write: this.#write(next) };
    });
  }

  /**
   * Keeps `result` as the key's answer when `owner` holds it in flight, atomically.
   *
   * @throws MilpaError `INVALID_ARGUMENT` when the result is not plain JSON data.
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the key's data is malformed.
   */
  async complete(key: string, owner: string, result: ToolResultJson, at: Date, retentionMs: number): Promise<boolean> {
    // Checked before Redis is asked, so a result that is not JSON data is the caller's error, not the store's.
    toJsonText(result, 'An idempotency result');
    return this.#update(key, (record) => {
      const next = completeIdempotencyRecord(record, owner, result, at, retentionMs);
      return next === null ? { answer: false } : { answer: true, write: this.#write(next) };
    });
  }

  /**
   * Frees the key when `owner` holds it in flight, atomically.
   *
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the key's data is malformed.
   */
  async release(key: string, owner: string): Promise<boolean> {
    return this.#update(key, (record) =>
      mayReleaseIdempotencyRecord(record, owner, new Date(this.#connection.now()))
        ? { answer: true, write: { value: null, ttlMs: null } }
        : { answer: false },
    );
  }

  /**
   * The record of `key`, or null when unknown or forgotten.
   *
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the key's data is malformed.
   */
  async get(key: string): Promise<IdempotencyRecord | null> {
    if (typeof key !== 'string') return null;
    const text = await this.#connection.read('idempotency', this.#connection.key('idempotency', key));
    const record = text === null ? null : decode(key, text);
    return record === null || record.forgetAt.getTime() <= this.#connection.now() ? null : record;
  }

  #update<T>(key: string, step: (record: IdempotencyRecord | null) => RecordUpdate<T>): Promise<T> {
    return this.#connection.update('idempotency', this.#connection.key('idempotency', key), (text) =>
      step(text === null ? null : decode(key, text)),
    );
  }

  #write(record: IdempotencyRecord): NonNullable<RecordUpdate<unknown>['write']> {
    return { value: encode(record), ttlMs: this.#connection.ttlUntil(record.forgetAt.getTime()) };
  }
}
