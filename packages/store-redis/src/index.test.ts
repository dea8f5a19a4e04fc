import { describe, expect, it } from 'vitest';
import * as storeRedis from './index.js';

describe('@milpa/store-redis', () => {
  describe('surface', () => {
    it('exports exactly these run-time values', () => {
      expect(Object.keys(storeRedis).sort()).toMatchInlineSnapshot(`
        [
          "RedisApprovalStore",
          "RedisConfirmationStore",
          "RedisIdempotencyStore",
          "RedisInvocationHistoryStore",
          "RedisRateLimiter",
          "RedisStoreError",
          "RedisStores",
          "RedisVerificationStore",
        ]
      `);
    });
  });
});
