import { ToolResult } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { readPendingConfirmation } from './pending-confirmation.js';

describe('readPendingConfirmation', () => {
  it('reads the token, summary and expiry of a confirm-token result', () => {
    const result = new ToolResult(
      true,
      { requires_confirmation: true, confirm_token: 'abc', action_summary: 'drop(x=1)', expires_at: '2026-01-01 00:00:00' },
      'drop(x=1)',
      null,
      {
        type: 'confirmation',
        requires_confirmation: true,
      },
    );
    expect(readPendingConfirmation(result, 'drop')).toEqual({
      toolName: 'drop',
      token: 'abc',
      actionSummary: 'drop(x=1)',
      expiresAt: '2026-01-01 00:00:00',
    });
  });

  it("is null for a tool's own confirmation result, which carries no token", () => {
    expect(readPendingConfirmation(ToolResult.confirmation('Delete 3 files?', { files: 3 }, 'delete', 'files', null), 'clean')).toBeNull();
  });

  it('is null for an ordinary result that happens to hold a confirm_token field', () => {
    expect(readPendingConfirmation(ToolResult.success({ confirm_token: 'abc' }), 'echo')).toBeNull();
  });
});
