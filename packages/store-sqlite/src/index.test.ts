import { describe, expect, it } from 'vitest';
import * as storeSqlite from './index.js';

describe('@milpa/store-sqlite', () => {
  describe('surface', () => {
    it('exports exactly these run-time values', () => {
      expect(Object.keys(storeSqlite).sort()).toMatchInlineSnapshot(`
        [
          "SqliteApprovalStore",
          "SqliteConfirmationStore",
          "SqliteIdempotencyStore",
          "SqliteInvocationHistoryStore",
          "SqliteRateLimiter",
          "SqliteStoreError",
          "SqliteStores",
          "SqliteVerificationStore",
        ]
      `);
    });
  });
});
