import type { ApprovalSettlement, PendingApproval } from '../contracts/approval-store.js';

const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';

function isValidDate(value: unknown): value is Date {
  return value instanceof Date && Number.isFinite(value.getTime());
}

/**
 * True for what an approval store's `open` accepts: a well-formed held call (non-empty id and tool,
 * an arguments object, valid dates) that has not been redeemed.
 *
 * @example
 * if (!isUnredeemedHeldCall(approval)) throw new MilpaError('open() needs an unredeemed PendingApproval.', { code: 'INVALID_ARGUMENT' });
 */
export function isUnredeemedHeldCall(approval: unknown): approval is PendingApproval {
  if (typeof approval !== 'object' || approval === null) return false;
  const held = approval as Partial<PendingApproval>;
  return (
    typeof held.approvalId === 'string' &&
    held.approvalId !== '' &&
    typeof held.toolName === 'string' &&
    held.toolName !== '' &&
    typeof held.arguments === 'object' &&
    held.arguments !== null &&
    !Array.isArray(held.arguments) &&
    typeof held.argumentsDigest === 'string' &&
    isTextOrNull(held.principal) &&
    typeof held.channel === 'string' &&
    isTextOrNull(held.runId) &&
    typeof held.requestId === 'string' &&
    isValidDate(held.createdAt) &&
    isValidDate(held.expiresAt) &&
    held.redeemedAt === null
  );
}

/**
 * True for a well-formed {@link ApprovalSettlement}: `succeeded` or `failed`, a string or null
 * code, and a valid date.
 *
 * @example
 * if (!isApprovalSettlement(settlement)) throw new MilpaError('settle() needs { outcome, code, at }.', { code: 'INVALID_ARGUMENT' });
 */
export function isApprovalSettlement(value: unknown): value is ApprovalSettlement {
  if (typeof value !== 'object' || value === null) return false;
  const { outcome, code, at } = value as Partial<ApprovalSettlement>;
  return (outcome === 'succeeded' || outcome === 'failed') && isTextOrNull(code) && isValidDate(at);
}
