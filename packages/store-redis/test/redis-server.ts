// The Redis server the tests use: REDIS_URL, or a local one on the default port. Each test file
// gets its own random key prefix and removes its keys afterwards, so files never see each other's
// data and a shared server is left as it was found.
import { randomBytes } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** Where the tests find Redis. */
export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** The message a test run fails with when no Redis answers. */
const START_REDIS = 'start one with `redis-server` or `docker run -p 6379:6379 redis:7`, or set REDIS_URL';
export const REDIS_NEEDED = `These tests need Redis at ${REDIS_URL} (${START_REDIS}).`;

/** A connected client of the `redis` package, as the tests use it. */
export type TestClient = RedisClientType;

/** Connects a client to the test server, failing (never skipping) with {@link REDIS_NEEDED} when none answers. */
export async function connectTestClient(): Promise<TestClient> {
  const client = createClient({ url: REDIS_URL, socket: { connectTimeout: 5_000, reconnectStrategy: false } });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.destroy();
    throw new Error(`${REDIS_NEEDED} Connecting failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return client;
}

/** A key prefix no other test file or run uses: `milpa-test:<label>:<random>:`. */
export function uniquePrefix(label: string): string {
  return `milpa-test:${label}:${randomBytes(6).toString('hex')}:`;
}

/** Deletes every key under `prefix` (which holds no glob characters), with SCAN and DEL. */
export async function removeKeys(client: TestClient, prefix: string): Promise<number> {
  let removed = 0;
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
    if (keys.length > 0) removed += await client.del(keys);
  }
  return removed;
}

/** The test file's Redis: a connected client and a prefix of its own, both set up in `beforeAll`. */
export interface TestRedis {
  /** A client of the file's own, connected before its tests run. */
  readonly client: TestClient;
  /** The file's key prefix. */
  readonly prefix: string;
}

/**
 * Connects to Redis before the file's tests and, after them, deletes the file's keys and
 * disconnects; without a server every test of the file fails with {@link REDIS_NEEDED}. Read the
 * fields only inside tests and hooks.
 */
export function useTestRedis(label: string): TestRedis {
  const prefix = uniquePrefix(label);
  let client: TestClient | undefined;
  let unreachable: unknown = null;
  beforeAll(async () => {
    try {
      client = await connectTestClient();
    } catch (error) {
      unreachable = error;
    }
  });
  // Each test fails on its own with the reason (a failing beforeAll would only mark them skipped).
  beforeEach(() => {
    if (unreachable !== null) throw unreachable;
  });
  afterAll(async () => {
    if (client === undefined) return;
    await removeKeys(client, prefix);
    await client.close();
  });
  return {
    prefix,
    get client(): TestClient {
      if (client === undefined) throw new Error(REDIS_NEEDED);
      return client;
    },
  };
}
