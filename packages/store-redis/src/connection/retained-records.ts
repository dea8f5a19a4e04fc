import type { RedisStoreName } from '../errors/redis-store-error.js';
import type { RecordUpdate, StoreConnection } from './store-connection.js';

/** A record as read back, with the instant (epoch ms) it is forgotten; null: kept until it changes. */
export interface Retained<T> {
  /** The record. */
  readonly value: T;
  /** When it is forgotten, or null. */
  readonly forgetAt: number | null;
}

/** What {@link RetainedRecords.update} writes: the next record as JSON text (holding its own `forgetAt`), and that instant. */
export interface RetainedWrite {
  /** The record's JSON text. */
  readonly text: string;
  /** When it is forgotten, or null. */
  readonly forgetAt: number | null;
}

/**
 * The records of one store, one string key each (`<prefix><namespace>:<id>`), each forgotten at
 * its own instant: on the server by the key's TTL, and already by the stores' clock when Redis
 * has not removed it yet. Changes go through {@link StoreConnection.update}, so they are atomic.
 */
export class RetainedRecords<T> {
  readonly #connection: StoreConnection;
  readonly #store: RedisStoreName;
  readonly #namespace: string;
  readonly #decode: (id: string, text: string) => Retained<T>;

  /** The records of `store` under `namespace`, read back with `decode` (which throws the store's `malformed` failure). */
  constructor(connection: StoreConnection, store: RedisStoreName, namespace: string, decode: (id: string, text: string) => Retained<T>) {
    this.#connection = connection;
    this.#store = store;
    this.#namespace = namespace;
    this.#decode = decode;
  }

  /** The live record `id`, or null when there is none or it is forgotten. */
  async get(id: string): Promise<T | null> {
    return this.#live(id, await this.#connection.read(this.#store, this.#key(id)));
  }

  /** Stores `write` as record `id` unless a live record holds the id, atomically; true when it stored. */
  insert(id: string, write: RetainedWrite): Promise<boolean> {
    return this.update(id, (current) => (current === null ? { answer: true, write } : { answer: false }));
  }

  /** Decides on the live record `id` (null when there is none) with `step`, and writes what it decided, atomically. */
  update<A>(id: string, step: (current: T | null) => { readonly answer: A; readonly write?: RetainedWrite }): Promise<A> {
    return this.#connection.update(this.#store, this.#key(id), (text): RecordUpdate<A> => {
      const { answer, write } = step(this.#live(id, text));
      if (write === undefined) return { answer };
      return { answer, write: { value: write.text, ttlMs: write.forgetAt === null ? null : this.#connection.ttlUntil(write.forgetAt) } };
    });
  }

  #key(id: string): string {
    return this.#connection.key(this.#namespace, id);
  }

  #live(id: string, text: string | null): T | null {
    if (text === null) return null;
    const { value, forgetAt } = this.#decode(id, text);
    return forgetAt !== null && forgetAt <= this.#connection.now() ? null : value;
  }
}
