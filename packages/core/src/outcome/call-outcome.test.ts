import { describe, expect, it } from 'vitest';
import { InvocationOutcome } from '../invocation/invocation-outcome.js';
import { ToolResult } from '../result/tool-result.js';
import { CALL_OUTCOME_KINDS, type CallOutcome, isWaitingForPerson, outcomeKindOf } from './call-outcome.js';

describe('outcomeKindOf', () => {
  it('gives every run-history outcome a kind from the one list', () => {
    for (const name of InvocationOutcome.values) expect(CALL_OUTCOME_KINDS).toContain(outcomeKindOf(name));
  });

  it('groups refusals, failures and waits', () => {
    expect(outcomeKindOf('auth_denied')).toBe('refused');
    expect(outcomeKindOf('approval_invalid')).toBe('refused');
    expect(outcomeKindOf('timeout')).toBe('failed');
    expect(outcomeKindOf('confirmation_requested')).toBe('confirmation_required');
    expect(outcomeKindOf('plan')).toBe('planned');
  });
});

describe('isWaitingForPerson', () => {
  it('is true for a confirmation or an approval, false otherwise', () => {
    expect(isWaitingForPerson({ kind: 'approval_pending', name: 'approval_pending', approvalId: 'a', expiresAt: 'x' })).toBe(true);
    expect(
      isWaitingForPerson({ kind: 'confirmation_required', name: 'confirmation_requested', token: 't', summary: 's', expiresAt: 'x' }),
    ).toBe(true);
    expect(isWaitingForPerson({ kind: 'executed', name: 'executed', servedByListener: false })).toBe(false);
    expect(isWaitingForPerson(null)).toBe(false);
  });
});

describe('ToolResult outcome', () => {
  const pending: CallOutcome = { kind: 'approval_pending', name: 'approval_pending', approvalId: 'a1', expiresAt: '2026-12-03T20:00:00Z' };

  it('is null on a result built by hand and kept out of the JSON shape', () => {
    const result = ToolResult.success({ id: 1 });
    expect(result.outcome).toBeNull();
    const carried = result.withOutcome(pending);
    expect(Object.keys(carried.toJSON())).toEqual(['success', 'data', 'message', 'error', 'meta']);
    expect(JSON.stringify(carried)).toBe(JSON.stringify(result));
    expect(carried).toEqual(result);
  });

  it('is carried through withMeta and read by the typed accessors', () => {
    const carried = ToolResult.failure('APPROVAL_PENDING', 'held').withOutcome(pending).withMeta({ extra: 1 });
    expect(carried.getPendingApproval()).toEqual(pending);
    expect(carried.getConfirmationRequest()).toBeNull();
    expect(carried.getRefusal()).toBeNull();
  });

  it('cannot be changed after construction', () => {
    const carried = ToolResult.success(null).withOutcome(pending);
    expect(() => {
      (carried as { outcome: unknown }).outcome = null;
    }).toThrow(TypeError);
  });
});
