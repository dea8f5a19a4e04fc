import {
  ToolErrorCode,
  type ApprovalPendingOutcome,
  type ConfirmationRequiredOutcome,
  type ExecutedOutcome,
  type FailedOutcome,
  type PlannedOutcome,
  type RefusalName,
  type RefusedOutcome,
  type ReplayedOutcome,
} from '@milpa/core';

/** The handler returned a result. Shared: an outcome is immutable, so most calls allocate none. */
export const EXECUTED_BY_HANDLER: ExecutedOutcome = Object.freeze({ kind: 'executed', name: 'executed', servedByListener: false });

/** A `tool.executing` listener answered instead of the handler (a cache). */
export const EXECUTED_BY_LISTENER: ExecutedOutcome = Object.freeze({ kind: 'executed', name: 'executed', servedByListener: true });

/** A call with an idempotency key got the first call's result back. */
export const REPLAYED: ReplayedOutcome = Object.freeze({ kind: 'replayed', name: 'replayed' });

/** A plan-mode call stopped before executing. */
export const PLANNED: PlannedOutcome = Object.freeze({ kind: 'planned', name: 'plan' });

/** A check refused the call: `name` says which, `code` and `reason` are what the caller is told. */
export function refusedOutcome(name: RefusalName, code: ToolErrorCode, reason: string): RefusedOutcome {
  return Object.freeze({ kind: 'refused', name, code, reason });
}

/** The handler threw or rejected (`failed`, `INTERNAL_ERROR`) or its hard timeout passed (`timeout`, `TIMEOUT`). */
export function failedOutcome(name: 'failed' | 'timeout', reason: string): FailedOutcome {
  return Object.freeze({ kind: 'failed', name, code: name === 'timeout' ? ToolErrorCode.TIMEOUT : ToolErrorCode.INTERNAL_ERROR, reason });
}

/** A confirmation token was issued instead of running; `expiresAt` is the ISO text the result shows. */
export function confirmationOutcome(token: string, summary: string, expiresAt: string): ConfirmationRequiredOutcome {
  return Object.freeze({ kind: 'confirmation_required', name: 'confirmation_requested', token, summary, expiresAt });
}

/** An approval gate held the call; `expiresAt` is the ISO text the result shows. */
export function approvalPendingOutcome(approvalId: string, expiresAt: string): ApprovalPendingOutcome {
  return Object.freeze({ kind: 'approval_pending', name: 'approval_pending', approvalId, expiresAt });
}
