import { approvalSettlementContract, approvalStoreContract } from '@milpa/core/testing';
import { describe, it } from 'vitest';
import { InMemoryApprovalStore } from './in-memory-approval-store.js';

describe('InMemoryApprovalStore', () => {
  describe('the ApprovalStore contract', () => {
    for (const contractCase of approvalStoreContract(() => new InMemoryApprovalStore())) it(contractCase.name, contractCase.run);
  });

  describe('the settle contract', () => {
    for (const contractCase of approvalSettlementContract(() => new InMemoryApprovalStore())) it(contractCase.name, contractCase.run);
  });
});
