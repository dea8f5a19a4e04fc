import type { ApprovalClaim, ApprovalRefusal, PendingApproval } from '../contracts/approval-store.js';

/**
 * Why `claim` may not redeem `approval`, or null when it may: used, then the binding (tool,
 * principal, channel, run), then expiry. Every {@link ApprovalStore} applies this same rule inside
 * its atomic redeem, so stores cannot disagree on who may resume a held call.
 *
 * @example
 * const refusal = checkApprovalClaim(record, claim);
 * if (refusal === null) markUsed(record);
 */
export function checkApprovalClaim(approval: PendingApproval, claim: ApprovalClaim): ApprovalRefusal | null {
  if (approval.redeemedAt !== null) return 'used';
  if (approval.toolName !== claim.toolName) return 'tool_mismatch';
  if (approval.principal !== claim.principal) return 'principal_mismatch';
  if (approval.channel !== claim.channel) return 'channel_mismatch';
  if (approval.runId !== claim.runId) return 'run_mismatch';
  if (claim.at.getTime() > approval.expiresAt.getTime()) return 'expired';
  return null;
}
