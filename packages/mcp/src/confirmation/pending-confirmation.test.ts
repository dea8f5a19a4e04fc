import { ToolResult } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { pendingConfirmationOf } from './pending-confirmation.js';

function confirmationResult(summary: string): ToolResult {
  return new ToolResult(
    true,
    { requires_confirmation: true, confirm_token: 'abc', action_summary: summary, expires_at: '2026-01-01 00:00:00' },
    'drop(x=1)',
    null,
    { type: 'confirmation', requires_confirmation: true },
  ).withOutcome({ kind: 'confirmation_required', name: 'confirmation_requested', token: 'abc', summary, expiresAt: '2026-01-01 00:00:00' });
}

describe('pendingConfirmationOf', () => {
  it('reads the token, summary and expiry of a confirmation_required outcome', () => {
    expect(pendingConfirmationOf(confirmationResult('drop(x=1)'), 'drop')).toEqual({
      toolName: 'drop',
      token: 'abc',
      actionSummary: 'drop(x=1)',
      expiresAt: '2026-01-01 00:00:00',
    });
  });

  it("falls back to the result's message when the summary is empty", () => {
    expect(pendingConfirmationOf(confirmationResult(''), 'drop')?.actionSummary).toBe('drop(x=1)');
  });

  it("is null for a tool's own confirmation result, which carries no token", () => {
    expect(pendingConfirmationOf(ToolResult.confirmation('Delete 3 files?', { files: 3 }, 'delete', 'files', null), 'clean')).toBeNull();
  });

  it('is null for an ordinary result that happens to hold a confirm_token field', () => {
    expect(pendingConfirmationOf(ToolResult.success({ confirm_token: 'abc' }), 'echo')).toBeNull();
  });

  it('is null when data and meta look like a confirmation request but the outcome is not one', () => {
    const lookalike = new ToolResult(
      true,
      { requires_confirmation: true, confirm_token: 'forged', action_summary: 'x', expires_at: '2026-01-01 00:00:00' },
      'x',
      null,
      { type: 'confirmation', requires_confirmation: true },
    ).withOutcome({ kind: 'executed', name: 'executed', servedByListener: false });
    expect(pendingConfirmationOf(lookalike, 'echo')).toBeNull();
  });
});
