import { describe, expect, it } from 'vitest';
import type { PendingApproval } from '../contracts/approval-store.js';
import { isApprovalSettlement, isUnredeemedHeldCall } from './held-call-checks.js';

const held: PendingApproval = {
  approvalId: 'approval-1',
  toolName: 'delete_note',
  arguments: { id: 7 },
  argumentsDigest: 'digest',
  principal: null,
  channel: 'mcp',
  runId: null,
  requestId: 'req-1',
  createdAt: new Date(),
  expiresAt: new Date(),
  redeemedAt: null,
};

describe('isUnredeemedHeldCall', () => {
  it('accepts a well-formed held call that was never redeemed', () => {
    expect(isUnredeemedHeldCall(held)).toBe(true);
  });

  it('refuses a redeemed call, an empty id or tool, arguments that are not an object, and invalid dates', () => {
    for (const approval of [
      { ...held, redeemedAt: new Date() },
      { ...held, approvalId: '' },
      { ...held, toolName: '' },
      { ...held, arguments: [1] },
      { ...held, principal: 7 },
      { ...held, expiresAt: new Date(Number.NaN) },
      null,
    ]) {
      expect(isUnredeemedHeldCall(approval)).toBe(false);
    }
  });
});

describe('isApprovalSettlement', () => {
  it('accepts succeeded and failed settlements, and refuses anything else', () => {
    expect(isApprovalSettlement({ outcome: 'succeeded', code: null, at: new Date() })).toBe(true);
    expect(isApprovalSettlement({ outcome: 'failed', code: 'FORBIDDEN', at: new Date() })).toBe(true);
    expect(isApprovalSettlement({ outcome: 'maybe', code: null, at: new Date() })).toBe(false);
    expect(isApprovalSettlement({ outcome: 'failed', code: 3, at: new Date() })).toBe(false);
    expect(isApprovalSettlement({ outcome: 'failed', code: null, at: Date.now() })).toBe(false);
    expect(isApprovalSettlement(null)).toBe(false);
  });
});
