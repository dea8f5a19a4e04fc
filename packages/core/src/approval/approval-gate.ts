import type { PendingApproval } from '../contracts/approval-store.js';
import type { ApprovalRequest } from './approval-request.js';
import type { ApprovalResolution } from './approval-resolution.js';
import type { ApprovalVerdict } from './approval-verdict.js';

/**
 * Decides whether a call that mutates may run. The registry asks it for every call that mutates
 * for its arguments (after authorization, rules, rate limit and confirmation). It answers an
 * {@link ApprovalVerdict}, synchronously or as a promise. A gate that throws, rejects, answers
 * anything else or outlives the caller's abort denies the call.
 *
 * A gate that suspends calls also implements `getResolution`, which the registry asks when the
 * requester resumes a held call.
 *
 * @example
 * const gate: ApprovalGate = {
 *   check: ({ toolName, context }) =>
 *     toolName === 'delete_note' && !context.hasScope('notes:admin')
 *       ? ApprovalVerdict.deny('Only admins delete notes.')
 *       : ApprovalVerdict.allow(),
 * };
 */
export interface ApprovalGate {
  /** Decides on one call: allow, deny with a reason, or suspend until someone else decides. */
  check(request: ApprovalRequest): ApprovalVerdict | PromiseLike<ApprovalVerdict>;
  /** What has been decided on a call this gate suspended; required to suspend. */
  getResolution?(approval: PendingApproval): ApprovalResolution | PromiseLike<ApprovalResolution>;
}
