import type { CallRow } from '../harness/call-row.js';
import { assertCheck } from '../harness/assert-check.js';

/**
 * Row S0: one `PING` round trip to the Redis the store rows use, through a client of the `redis`
 * package, without Milpa: the least any call that waits for Redis once can cost on this machine.
 * Timed by wall clock, like the store rows, and divided by the in-memory row `baseline`.
 */
export function createRedisPingRow(ping: () => Promise<string>, baseline: string): CallRow {
  return {
    id: 'S0',
    label: 'reference: one Redis PING round trip (redis client, no Milpa)',
    group: 'store-rate-limit',
    clock: 'wall',
    baseline,
    check: async () => {
      const reply = await ping();
      assertCheck(reply === 'PONG', `PING answered ${JSON.stringify(reply)}`);
    },
    batch: async (n) => {
      for (let index = 0; index < n; index++) await ping();
    },
  };
}
