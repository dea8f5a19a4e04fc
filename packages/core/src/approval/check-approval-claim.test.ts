import { describe, expect, it } from 'vitest';
import type { ApprovalClaim, PendingApproval } from '../contracts/approval-store.js';
import { checkApprovalClaim } from './check-approval-claim.js';

const approval: PendingApproval = Object.freeze({
  approvalId: 'a'.repeat(32),
  toolName: 'delete_note',
  arguments: Object.freeze({ id: 7 }),
  argumentsDigest: 'digest',
  principal: 'agent:1',
  channel: 'mcp',
  runId: 'run_1',
  requestId: 'req-1',
  createdAt: new Date(1_000),
  expiresAt: new Date(10_000),
  redeemedAt: null,
});

const claim: ApprovalClaim = { toolName: 'delete_note', principal: 'agent:1', channel: 'mcp', runId: 'run_1', at: new Date(10_000) };

describe('checkApprovalClaim', () => {
  it('returns null when every field matches, up to and including the expiry instant', () => {
    expect(checkApprovalClaim(approval, claim)).toBeNull();
  });

  it.each([
    [{ toolName: 'delete_all' }, 'tool_mismatch'],
    [{ principal: 'agent:2' }, 'principal_mismatch'],
    [{ principal: null }, 'principal_mismatch'],
    [{ channel: 'web' }, 'channel_mismatch'],
    [{ runId: 'run_2' }, 'run_mismatch'],
    [{ runId: null }, 'run_mismatch'],
    [{ at: new Date(10_001) }, 'expired'],
  ] as const)('refuses a claim with %j as %s', (change, refusal) => {
    expect(checkApprovalClaim(approval, { ...claim, ...change })).toBe(refusal);
  });

  it('refuses a used record as used, before anything else', () => {
    expect(checkApprovalClaim({ ...approval, redeemedAt: new Date(2_000) }, { ...claim, principal: 'someone' })).toBe('used');
  });
});
