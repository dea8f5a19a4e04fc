import { VerificationError } from '@milpa/verification';
import type { ApprovalItem } from './approval-item.js';

/**
 * What the approver is told about an item that is no longer pending: expired, or decided (and by
 * whom); nothing changed either way.
 */
export function describeDecided(item: ApprovalItem): string {
  if (item.state === 'expired') return 'This request expired before it was decided; nothing changed. The caller has to ask again.';
  const by = item.decidedBy === null ? '' : ` by ${item.decidedBy}`;
  return (
    `This request was already decided ` +
    `(${item.state === 'granted' ? 'granted' : item.state === 'rejected' ? 'rejected' : 'closed'}${by}); nothing changed.`
  );
}

/** What the requester is told when they try to approve their own call. */
export function selfApprovalMessage(item: ApprovalItem): string {
  return (
    `You asked for this call (${item.requester ?? ''}), so you cannot approve it: someone other ` +
    `than the requester has to. Nothing was recorded.`
  );
}

/**
 * The status and message for a decision the verifier refused (a `VerificationError`), or null for
 * any other error (which the console does not explain).
 */
export function decisionRefusalOf(error: unknown, item: ApprovalItem): { status: number; message: string } | null {
  if (!VerificationError.isVerificationError(error)) return null;
  switch (error.kind) {
    case 'already_resolved':
    case 'expired':
      return {
        status: 409,
        message: describeDecided(item.state === 'pending' ? { ...item, state: error.kind === 'expired' ? 'expired' : 'other' } : item),
      };
    case 'self_approval':
      return { status: 403, message: selfApprovalMessage(item) };
    case 'duplicate_approval':
      return {
        status: 409,
        message:
          `You have already approved this request; policy '${item.policy}' needs ${item.required} approvals from ` +
          `different people. Nothing changed.`,
      };
    case 'not_found':
      return { status: 404, message: 'This request no longer exists; nothing changed.' };
    case 'invalid_changes':
      return { status: 422, message: 'The edited values are not plain data; nothing was recorded.' };
    default:
      return { status: 409, message: `The decision was refused (${error.kind}); nothing changed.` };
  }
}
