import { describe, expect, it } from 'vitest';
import * as testing from './index.js';

describe('@milpa/core/testing', () => {
  describe('surface', () => {
    it('exports exactly these run-time values', () => {
      expect(Object.keys(testing).sort()).toMatchInlineSnapshot(`
        [
          "StoreContractError",
          "approvalSettlementContract",
          "approvalStoreContract",
          "confirmationStoreContract",
          "idempotencyStoreContract",
          "invocationHistoryStoreContract",
          "rateLimiterContract",
          "verificationStoreContract",
        ]
      `);
    });
  });
});
