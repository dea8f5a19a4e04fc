import { messageOf } from '@milpa/core/kit';
import { RedisStoreError, type RedisStoreFailure, type RedisStoreName } from '../errors/redis-store-error.js';
import type { RedisStoreClient } from './redis-store-client.js';
import { RedisScript } from './redis-script.js';

/** The names that do not read as `<name> store`. */
const IRREGULAR_LABELS: Readonly<Partial<Record<RedisStoreName, string>>> = Object.freeze({
  rate_limit: 'rate limiter',
  history: 'invocation history store',
  connection: 'connection',
});

/** How often a compare-and-set is retried when the record keeps changing under it. */
const UPDATE_ATTEMPTS = 64;

/**
 * Replaces `KEYS[1]` by `ARGV[2]` (deletes it when `ARGV[2]` is empty; keeps it `ARGV[3]`
 * milliseconds when that is not empty) only if it still holds `ARGV[1]` (empty: only if it does
 * not exist). Answers 1 when it wrote, 0 when the key had changed. A key of another type fails
 * with WRONGTYPE rather than being overwritten.
 */
const COMPARE_AND_SET = new RedisScript(
  'compare-and-set',
  `
local current = redis.call('GET', KEYS[1])
if current == false then current = '' end
if current ~= ARGV[1] then return 0 end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
elseif ARGV[3] == '' then
  redis.call('SET', KEYS[1], ARGV[2])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return 1
`,
);

/** The label a message uses for `store`, e.g. `Redis rate limiter`. */
export function storeLabel(store: RedisStoreName): string {
  return `Redis ${IRREGULAR_LABELS[store] ?? `${store} store`}`;
}

/** A `malformed` failure of `store`: a key that does not hold what the store wrote. */
export function malformedData(store: RedisStoreName, what: string, cause?: unknown): RedisStoreError {
  return new RedisStoreError(`The ${storeLabel(store)} found malformed data (${what}); it will not guess an answer from it.`, {
    store,
    failure: 'malformed',
    cause,
  });
}

/** What one step of {@link StoreConnection.update} decided: its answer, and what to write (nothing when absent). */
export interface RecordUpdate<T> {
  /** What the operation answers once the write, if any, succeeded. */
  readonly answer: T;
  /** The key's next value (null deletes it) and how long Redis keeps it (null: until changed). */
  readonly write?: { readonly value: string | null; readonly ttlMs: number | null };
}

/** The settings of a {@link StoreConnection}. */
export interface StoreConnectionSettings {
  /** Prepended to every key. */
  readonly prefix: string;
  /** Milliseconds a command may take before it fails as a `timeout`. */
  readonly commandTimeoutMs: number;
  /** The stores' clock, in epoch milliseconds. */
  readonly now: () => number;
  /** The last connection error the client reported, for messages; null when none. */
  readonly lastConnectionError?: () => Error | null;
}

const REPLY_ERRORS = new Set(['ErrorReply', 'SimpleError', 'BlobError']);
const CLOSED_ERRORS = new Set(['ClientClosedError', 'DisconnectsClientError']);

/** Strings as strings (bulk replies may arrive as Buffers, depending on the client's type mapping), arrays element by element. */
function normalizeReply(reply: unknown): unknown {
  if (reply instanceof Uint8Array) return Buffer.from(reply).toString('utf8');
  if (Array.isArray(reply)) return reply.map(normalizeReply);
  return reply;
}

/**
 * The one client the six stores share, and the ways they use it: a plain command, a Lua script
 * (atomic on the server), and a compare-and-set update of one key. Every command is bounded by the
 * command timeout, and every failure comes out as a {@link RedisStoreError} naming the store.
 */
export class StoreConnection {
  readonly #client: RedisStoreClient;
  readonly #settings: StoreConnectionSettings;
  #closed = false;

  /** Shares `client` among the stores, with `settings`. */
  constructor(client: RedisStoreClient, settings: StoreConnectionSettings) {
    this.#client = client;
    this.#settings = settings;
  }

  /** The stores' clock, in epoch milliseconds. */
  now(): number {
    return this.#settings.now();
  }

  /** The Redis key of `id` in `namespace`, under the prefix: `milpa:approval:<id>`. */
  key(namespace: string, id: string): string {
    return `${this.#settings.prefix}${namespace}:${id}`;
  }

  /** Milliseconds from now until `at`, at least 1: what `PX` wants for a key that lives until `at`. */
  ttlUntil(at: number): number {
    return Math.max(1, Math.ceil(at - this.now()));
  }

  /** True until {@link StoreConnection.close}. */
  get isOpen(): boolean {
    return !this.#closed;
  }

  /** Stops the stores: every later call throws a `closed` failure. Does not close the client. */
  close(): void {
    this.#closed = true;
  }

  /** Sends one command for `store`. */
  async command(store: RedisStoreName, args: readonly string[]): Promise<unknown> {
    if (this.#closed) throw new RedisStoreError(`The ${storeLabel(store)} is closed.`, { store, failure: 'closed' });
    if (!this.#client.isOpen)
      throw new RedisStoreError(`The ${storeLabel(store)} cannot use its Redis client: the client is closed.`, {
        store,
        failure: 'closed',
      });
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeoutMs = this.#settings.commandTimeoutMs;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(
          new RedisStoreError(`The ${storeLabel(store)} got no answer from Redis within ${String(timeoutMs)} ms.`, {
            store,
            failure: 'timeout',
          }),
        );
      }, timeoutMs);
    });
    try {
      const reply = this.#client.sendCommand(args, { abortSignal: controller.signal });
      return normalizeReply(await Promise.race([reply, deadline]));
    } catch (error) {
      throw this.#translate(store, error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs `script` on `keys` with `args`, atomically on the server: by its SHA-1, or in full when the server does not have it yet. */
  async run(store: RedisStoreName, script: RedisScript, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.command(store, ['EVALSHA', script.sha1, ...tail]);
    } catch (error) {
      if (!(error instanceof RedisStoreError) || error.failure !== 'server' || !messageOf(error.cause).startsWith('NOSCRIPT')) throw error;
      return this.command(store, ['EVAL', script.source, ...tail]);
    }
  }

  /**
   * Reads `key` (a string key), decides with `step`, and writes what it decided only if the key
   * still holds what was read, in one compare-and-set script; when another writer came first, it
   * reads again and decides anew. So `step` (a shared rule of `@milpa/core`) always decides on
   * the current value, and two racing updates never both apply.
   *
   * @throws RedisStoreError `contention` when the key changed under every attempt.
   */
  async update<T>(store: RedisStoreName, key: string, step: (current: string | null) => RecordUpdate<T>): Promise<T> {
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt += 1) {
      const current = await this.read(store, key);
      const { answer, write } = step(current);
      if (write === undefined) return answer;
      const args = [current ?? '', write.value ?? '', write.ttlMs === null ? '' : String(write.ttlMs)];
      if ((await this.run(store, COMPARE_AND_SET, [key], args)) === 1) return answer;
    }
    throw new RedisStoreError(
      `The ${storeLabel(store)} could not update ${key}: it changed under each of ${String(UPDATE_ATTEMPTS)} attempts.`,
      {
        store,
        failure: 'contention',
      },
    );
  }

  /** The value of the string key `key`, or null when there is none. */
  async read(store: RedisStoreName, key: string): Promise<string | null> {
    const value = await this.command(store, ['GET', key]);
    if (value === null || typeof value === 'string') return value;
    throw malformedData(store, `${key} answered GET with ${typeof value}`);
  }

  #translate(store: RedisStoreName, error: unknown): RedisStoreError {
    if (error instanceof RedisStoreError) return error;
    const detail = messageOf(error);
    const fail = (failure: RedisStoreFailure, message: string): RedisStoreError =>
      new RedisStoreError(message, { store, failure, cause: error });
    if (this.#closed) return fail('closed', `The ${storeLabel(store)} is closed.`);
    const name = error instanceof Error ? error.constructor.name : '';
    if (REPLY_ERRORS.has(name)) {
      if (detail.startsWith('WRONGTYPE'))
        return fail('malformed', `The ${storeLabel(store)} found malformed data (a key of another type): ${detail}`);
      return fail('server', `The ${storeLabel(store)} got an error from Redis: ${detail}`);
    }
    if (CLOSED_ERRORS.has(name)) return fail('closed', `The ${storeLabel(store)} cannot use its Redis client: ${detail}`);
    const last = this.#settings.lastConnectionError?.() ?? null;
    const because = last === null || last.message === detail ? '' : ` (last connection error: ${last.message})`;
    return fail('unreachable', `The ${storeLabel(store)} cannot reach Redis: ${detail}${because}`);
  }
}
