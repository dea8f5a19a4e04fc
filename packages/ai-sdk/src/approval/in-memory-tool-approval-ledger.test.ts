import { MilpaError } from '@milpa/core';
import { approvalStoreContract } from '@milpa/core/testing';
import { describe, expect, it } from 'vitest';
import { InMemoryToolApprovalLedger } from './in-memory-tool-approval-ledger.js';

describe('InMemoryToolApprovalLedger', () => {
  describe('as an approval store', () => {
    for (const contractCase of approvalStoreContract(() => new InMemoryToolApprovalLedger())) it(contractCase.name, contractCase.run);
  });

  it('throws a MilpaError for a maxTickets that is not a positive integer', () => {
    expect(() => new InMemoryToolApprovalLedger({ maxTickets: 0 })).toThrow(MilpaError);
    expect(() => new InMemoryToolApprovalLedger({ maxTickets: 1.5 })).toThrow(/positive integer/);
  });
});
