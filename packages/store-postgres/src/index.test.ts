import { describe, expect, it } from 'vitest';
import * as storePostgres from './index.js';

describe('@milpa/store-postgres', () => {
  describe('surface', () => {
    it('exports exactly these run-time values', () => {
      expect(Object.keys(storePostgres).sort()).toMatchInlineSnapshot(`
        [
          "PostgresApprovalStore",
          "PostgresConfirmationStore",
          "PostgresIdempotencyStore",
          "PostgresInvocationHistoryStore",
          "PostgresRateLimiter",
          "PostgresStoreError",
          "PostgresStores",
          "PostgresVerificationStore",
        ]
      `);
    });
  });
});
