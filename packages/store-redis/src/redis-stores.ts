import { MilpaError } from '@milpa/core';
import { messageOf } from '@milpa/core/kit';
import { createClient } from 'redis';
import { RedisApprovalStore } from './approval/redis-approval-store.js';
import { RedisConfirmationStore } from './confirmation/redis-confirmation-store.js';
import type { RedisStoreClient } from './connection/redis-store-client.js';
import { StoreConnection } from './connection/store-connection.js';
import { RedisStoreError } from './errors/redis-store-error.js';
import { RedisIdempotencyStore } from './idempotency/redis-idempotency-store.js';
import { RedisInvocationHistoryStore } from './invocation/redis-invocation-history-store.js';
import { RedisRateLimiter } from './rate-limiting/redis-rate-limiter.js';
import { RedisVerificationStore } from './verification/redis-verification-store.js';

/** Options of {@link RedisStores.connect}; every field is optional. */
export interface RedisStoresOptions {
  /**
   * Where Redis is, as `redis[s]://[[user][:password]@]host[:port][/db]`, for a client the stores
   * create (and close). Default `redis://127.0.0.1:6379`. Not together with `client`.
   */
  readonly url?: string;
  /**
   * A client you created and connected yourself (e.g. `await createClient(...).connect()` from the
   * `redis` package), shared with the rest of your program; {@link RedisStores.close} leaves it open.
   * Not together with `url`.
   */
  readonly client?: RedisStoreClient;
  /** Prepended to every key the stores write, so several deployments can share one Redis. Default `milpa:`. */
  readonly prefix?: string;
  /** Seconds a confirmation token stays redeemable (whole seconds ≥ 1). Default 60. */
  readonly confirmationTtlSeconds?: number;
  /** Milliseconds a finished verification record is kept before it is forgotten. Default one hour. */
  readonly verificationRetentionMs?: number;
  /**
   * Milliseconds a call held for approval is kept after it expires or is used, so a late resume is
   * told "expired" or "used" rather than "unknown". Default one hour.
   */
  readonly approvalRetentionMs?: number;
  /** Observations kept per run; past it the oldest are dropped and the run becomes incomplete. Default 1,000. */
  readonly maxObservationsPerRun?: number;
  /** Seconds after which a run nobody touched is forgotten. Default 86,400 (a day). */
  readonly historyIdleTtlSeconds?: number;
  /**
   * Milliseconds connecting may take, retries included, before `connect` fails; also the timeout
   * of each attempt to open a socket. Default 5,000.
   */
  readonly connectTimeoutMs?: number;
  /** Milliseconds one command may wait for Redis's answer before the store fails with `timeout`. Default 5,000. */
  readonly commandTimeoutMs?: number;
  /** The clock, in epoch milliseconds (for tests); Redis's own clock still expires keys. Default `Date.now`. */
  readonly now?: () => number;
}

const DEFAULT_URL = 'redis://127.0.0.1:6379';

/** The longest pause between two reconnection attempts of a client the stores created. */
const MAX_RECONNECT_DELAY_MS = 1_000;

function whole(name: string, value: number | undefined, fallback: number, minimum: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw new MilpaError(`RedisStores option ${name} must be a whole number of at least ${String(minimum)}, got ${String(value)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return value;
}

/** A client the stores created: what closing it needs. */
interface OwnedClient {
  close(): Promise<unknown>;
  destroy(): unknown;
}

/**
 * Opens a client on `url` and connects it within `timeoutMs`, or throws (and leaves nothing open).
 * Once connected, the client reconnects by itself after a lost connection, pausing at most
 * {@link MAX_RECONNECT_DELAY_MS} between attempts; meanwhile commands fail at once instead of
 * queueing, so a store never waits on a server that is gone.
 */
async function connectOwnClient(
  url: string,
  timeoutMs: number,
): Promise<{ client: RedisStoreClient & OwnedClient; lastError: () => Error | null }> {
  let lastError: Error | null = null;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: timeoutMs, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, MAX_RECONNECT_DELAY_MS) },
  });
  // Without a listener an 'error' event would crash the process; the stores report failures themselves.
  client.on('error', (error: unknown) => {
    lastError = error instanceof Error ? error : new Error(String(error));
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const outcome = await Promise.race([client.connect().then(() => 'connected' as const), deadline]);
    if (outcome === 'timeout') {
      // Refused or failing attempts until the deadline: unreachable; a server that never answered: a timeout.
      const last = lastError as Error | null;
      const detail = last === null ? 'no answer' : `last error: ${last.message}`;
      throw new RedisStoreError(`Could not connect to Redis at ${url} within ${String(timeoutMs)} ms (${detail}).`, {
        store: 'connection',
        failure: last === null ? 'timeout' : 'unreachable',
        cause: last ?? undefined,
      });
    }
  } catch (error) {
    client.destroy();
    if (error instanceof RedisStoreError) throw error;
    throw new RedisStoreError(`Could not connect to Redis at ${url}: ${messageOf(error)}`, {
      store: 'connection',
      failure: 'unreachable',
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
  return { client: client as unknown as RedisStoreClient & OwnedClient, lastError: () => lastError };
}

/**
 * Milpa's stores in Redis: confirmation tokens, rate-limit budgets, verification requests, calls
 * held for approval, idempotency keys and invocation histories, shared, atomically, by every
 * process on every machine that uses the same Redis server and key prefix.
 *
 * Every check-and-change runs on the server in one Lua script: redeeming a token, spending a
 * budget and every history change are scripts of their own; deciding a verification, redeeming a
 * held call and beginning, completing or releasing an idempotency key apply the shared rules of
 * `@milpa/core` to the record as read and write the result through a compare-and-set script that
 * fails if the record changed in between, and then decide again. Every key carries a TTL on the
 * server (`PEXPIRE`/`PX`), so Redis forgets expired state by itself; no process sweeps.
 *
 * Every failure (Redis unreachable, a command past its timeout, a closed client, data the stores
 * did not write) is a {@link RedisStoreError} with the code `STORE_UNAVAILABLE` naming the store;
 * no store answers from data it cannot read.
 *
 * @example
 * import { RedisStores } from '@milpa/store-redis';
 *
 * const stores = await RedisStores.connect({ url: 'redis://127.0.0.1:6379', prefix: 'my-agent:' });
 * const registry = new ToolRegistry({
 *   confirmationStore: stores.confirmation,
 *   rateLimiter: stores.rateLimiter,
 *   historyStore: stores.history,
 *   idempotencyStore: stores.idempotency,
 * });
 * const verifier = new HumanVerifier({ store: stores.verification });
 * process.on('SIGTERM', () => void stores.close());
 */
export class RedisStores {
  /** Pending confirmation tokens. */
  readonly confirmation: RedisConfirmationStore;
  /** Fixed-window rate-limit budgets. */
  readonly rateLimiter: RedisRateLimiter;
  /** Verification requests and their decisions. */
  readonly verification: RedisVerificationStore;
  /** Calls held for approval until their requester resumes them. */
  readonly approval: RedisApprovalStore;
  /** Idempotency keys and the results they answer. */
  readonly idempotency: RedisIdempotencyStore;
  /** Each run's invocation history. */
  readonly history: RedisInvocationHistoryStore;
  /** The prefix of every key the stores write. */
  readonly prefix: string;

  readonly #connection: StoreConnection;
  readonly #owned: OwnedClient | null;
  readonly #closeTimeoutMs: number;
  #closing: Promise<void> | null = null;

  private constructor(connection: StoreConnection, owned: OwnedClient | null, prefix: string, settings: ReturnType<typeof readSettings>) {
    this.#connection = connection;
    this.#owned = owned;
    this.#closeTimeoutMs = settings.commandTimeoutMs;
    this.prefix = prefix;
    this.confirmation = new RedisConfirmationStore(connection, settings.confirmationTtlSeconds);
    this.rateLimiter = new RedisRateLimiter(connection);
    this.verification = new RedisVerificationStore(connection, settings.verificationRetentionMs);
    this.approval = new RedisApprovalStore(connection, settings.approvalRetentionMs);
    this.idempotency = new RedisIdempotencyStore(connection);
    this.history = new RedisInvocationHistoryStore(connection, settings.maxObservationsPerRun, settings.historyIdleTtlSeconds);
  }

  /**
   * Connects to Redis (or takes the connected `client` given) and returns the six stores. Any
   * number of processes may connect to the same server with the same prefix at once.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for an option out of range, or both `url` and `client`.
   * @throws RedisStoreError `STORE_UNAVAILABLE` (store `connection`) when Redis cannot be reached
   *   within `connectTimeoutMs`, or the given client is closed or does not answer a `PING`.
   */
  static async connect(options: RedisStoresOptions = {}): Promise<RedisStores> {
    const settings = readSettings(options);
    if (options.url !== undefined && options.client !== undefined) {
      throw new MilpaError('RedisStores.connect takes a url or a client, not both.', { code: 'INVALID_ARGUMENT' });
    }
    if (options.url !== undefined && (typeof options.url !== 'string' || options.url === '')) {
      throw new MilpaError('RedisStores option url must be a non-empty string.', { code: 'INVALID_ARGUMENT' });
    }
    let client: RedisStoreClient;
    let owned: OwnedClient | null = null;
    let lastError: () => Error | null = () => null;
    if (options.client === undefined) {
      const created = await connectOwnClient(options.url ?? DEFAULT_URL, settings.connectTimeoutMs);
      client = created.client;
      owned = created.client;
      lastError = created.lastError;
    } else {
      client = options.client;
      if (typeof client?.sendCommand !== 'function') {
        throw new MilpaError('RedisStores option client must be a Redis client (from createClient of the redis package).', {
          code: 'INVALID_ARGUMENT',
        });
      }
    }
    const connection = new StoreConnection(client, {
      prefix: settings.prefix,
      commandTimeoutMs: settings.commandTimeoutMs,
      now: options.now ?? Date.now,
      lastConnectionError: lastError,
    });
    try {
      const pong = await connection.command('connection', ['PING']);
      if (pong !== 'PONG')
        throw new RedisStoreError(`Redis answered PING with ${JSON.stringify(pong)}.`, { store: 'connection', failure: 'server' });
    } catch (error) {
      owned?.destroy();
      throw error;
    }
    return new RedisStores(connection, owned, settings.prefix, settings);
  }

  /**
   * Stops the stores (every later call throws a `closed` failure) and closes the client they
   * created, waiting at most `commandTimeoutMs` for pending replies; a client given to
   * {@link RedisStores.connect} stays open. Idempotent.
   */
  close(): Promise<void> {
    this.#connection.close();
    this.#closing ??= this.#closeOwnedClient();
    return this.#closing;
  }

  async #closeOwnedClient(): Promise<void> {
    const owned = this.#owned;
    if (owned === null) return;
    // Closing waits for pending replies; a server that is gone or silent never sends them, so after
    // the command timeout the socket is dropped instead.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.#closeTimeoutMs);
    });
    try {
      if ((await Promise.race([owned.close(), late])) === 'late') owned.destroy();
    } catch {
      owned.destroy();
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Every option checked, with its default; throws before anything connects. */
function readSettings(options: RedisStoresOptions) {
  const prefix = options.prefix ?? 'milpa:';
  if (typeof prefix !== 'string' || prefix === '')
    throw new MilpaError('RedisStores option prefix must be a non-empty string.', { code: 'INVALID_ARGUMENT' });
  if (options.now !== undefined && typeof options.now !== 'function')
    throw new MilpaError('RedisStores option now must be a function.', { code: 'INVALID_ARGUMENT' });
  return {
    prefix,
    confirmationTtlSeconds: whole('confirmationTtlSeconds', options.confirmationTtlSeconds, 60, 1),
    verificationRetentionMs: whole('verificationRetentionMs', options.verificationRetentionMs, 3_600_000, 0),
    approvalRetentionMs: whole('approvalRetentionMs', options.approvalRetentionMs, 3_600_000, 0),
    maxObservationsPerRun: whole('maxObservationsPerRun', options.maxObservationsPerRun, 1_000, 1),
    historyIdleTtlSeconds: whole('historyIdleTtlSeconds', options.historyIdleTtlSeconds, 86_400, 1),
    connectTimeoutMs: whole('connectTimeoutMs', options.connectTimeoutMs, 5_000, 1),
    commandTimeoutMs: whole('commandTimeoutMs', options.commandTimeoutMs, 5_000, 1),
  } as const;
}
