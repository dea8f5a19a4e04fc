// The Redis server the tests use: REDIS_URL, or a local one on the default port. Each test file
// gets its own random key prefix and removes its keys afterwards, so files never see each other's
// data and a shared server is left as it was found. Whether Redis answers is decided once per run
// by the global setup (test/redis-global-setup.ts): without it the Redis suites are skipped, or,
// with CI set, the run fails before any test.
import { randomBytes } from 'node:crypto';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, inject } from 'vitest';

const AVAILABILITY = inject('redis');

/** Where the tests find Redis (the URL the global setup tried). */
export const REDIS_URL = AVAILABILITY.url;

/** The message a test fails with when it needs Redis and none answers. */
export const REDIS_NEEDED = `These tests need Redis at ${REDIS_URL} (start one with \`redis-server\`, or set REDIS_URL).`;

/** `describe` for a suite that needs Redis: skipped when the global setup found none. */
export function describeWithRedis(name: string, body: () => void): void {
  describe.skipIf(AVAILABILITY.unreachable !== null)(name, body);
}

/** A connected client of the `redis` package, as the tests use it. */
export type TestClient = RedisClientType;

/** Connects a client to the test server, failing with {@link REDIS_NEEDED} when none answers. */
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
 * disconnects. Registers nothing when Redis is not there (the file's suites, declared with
 * {@link describeWithRedis}, are skipped then). Read the fields only inside tests and hooks.
 */
export function useTestRedis(label: string): TestRedis {
  const prefix = uniquePrefix(label);
  let client: TestClient | undefined;
  if (AVAILABILITY.unreachable === null) {
    beforeAll(async () => {
      client = await connectTestClient();
    });
    afterAll(async () => {
      if (client === undefined) return;
      await removeKeys(client, prefix);
      await client.close();
    });
  }
  return {
    prefix,
    get client(): TestClient {
      if (client === undefined) throw new Error(REDIS_NEEDED);
      return client;
    },
  };
}
