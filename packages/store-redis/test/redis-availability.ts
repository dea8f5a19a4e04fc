// Whether the Redis the tests use answers, decided once per run by the global setup
// (test/redis-global-setup.ts) and read by every test file through vitest's `inject`.
import { createClient } from 'redis';

// The URL is read as the test command's CI check reads it.
export { redisUrlOf } from '../../../scripts/service-urls.mjs';

/** What the global setup found: the URL it tried and, when nothing answered there, why. */
export interface RedisAvailability {
  /** The URL tried, as the tests use it. */
  readonly url: string;
  /** Null when a PING was answered; otherwise the connection error's message. */
  readonly unreachable: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by test/redis-global-setup.ts. */
    redis: RedisAvailability;
  }
}

/** Connects to `url` and sends PING; never throws. */
export async function probeRedis(url: string): Promise<RedisAvailability> {
  const client = createClient({ url, socket: { connectTimeout: 5_000, reconnectStrategy: false } });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return { url, unreachable: null };
  } catch (error) {
    return { url, unreachable: error instanceof Error && error.message !== '' ? error.message : String(error) };
  } finally {
    client.destroy();
  }
}

/** How to get Redis, for the messages. */
const START_REDIS = 'start one (`redis-server`, or `docker run -p 6379:6379 redis:7`) or set REDIS_URL';

/** The one line a run without Redis prints outside CI. */
export function skippedLine(availability: RedisAvailability): string {
  return (
    `[skipped] @milpa/store-redis: the Redis tests, because nothing answers at ${availability.url} ` +
    `(${availability.unreachable}); to run them, ${START_REDIS}.`
  );
}

/** The one line a CI run without Redis fails with. */
export function missingInCiLine(availability: RedisAvailability): string {
  return (
    `@milpa/store-redis: no Redis answers at ${availability.url} (${availability.unreachable}), and with CI set ` +
    `the Redis tests are never skipped: ${START_REDIS}.`
  );
}
