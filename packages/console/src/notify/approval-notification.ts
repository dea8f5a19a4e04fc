import type { ApprovalPolicy } from '@milpa/core';
import type { ApprovalItem } from '../console/approval-item.js';

/**
 * What happened to an approval: `opened` (a call is waiting), `approval_recorded` (a grant was
 * recorded and the policy still needs more approvals from other people), `granted` (the call may
 * now run), `rejected` (it will not run) or `expired` (its deadline passed undecided; it will not run).
 */
export type ApprovalNotificationKind = 'opened' | 'approval_recorded' | 'granted' | 'rejected' | 'expired';

/**
 * One notification about a held call, as the console's `notify` option receives it. It never
 * carries the call's arguments (not even redacted ones): only who asked for which tool under which
 * rule, the approvals so far, who decided and why, and a link to the item.
 */
export interface ApprovalNotification {
  /** What happened. */
  readonly kind: ApprovalNotificationKind;
  /** The approval id (the verification request id). */
  readonly approvalId: string;
  /** The tool that was called. */
  readonly tool: string;
  /** The principal that asked, or null. */
  readonly requester: string | null;
  /** The approval rule: `single`, `dual`, `quorum` or `auto`. */
  readonly policy: ApprovalPolicy;
  /** Grants recorded so far. */
  readonly approvals: number;
  /** Grants the rule needs. */
  readonly required: number;
  /** Who granted or rejected (for `opened` and `expired`, null). */
  readonly decidedBy: string | null;
  /** The reason given with the grant or rejection, or null. */
  readonly reason: string | null;
  /** When it happened. */
  readonly at: Date;
  /** The item's page in the console (from the `publicUrl` option), or null without one. */
  readonly url: string | null;
}

/**
 * Receives approval notifications. It runs after the decision is recorded, off the decision's
 * path: what it returns or throws never changes or delays a grant or a rejection.
 */
export type ApprovalNotifier = (notification: ApprovalNotification) => void | Promise<void>;

/**
 * The notification of `kind` about `item` as it stands now, linking to `publicUrl` (the console's
 * public address ending in `/`, or null for no link). Reads nothing from the item's arguments.
 */
export function toApprovalNotification(kind: ApprovalNotificationKind, item: ApprovalItem, publicUrl: string | null): ApprovalNotification {
  const latest = item.approvals.at(-1) ?? null;
  let decidedBy: string | null = null;
  let reason: string | null = null;
  let at = item.createdAt;
  if (kind === 'approval_recorded' && latest !== null) {
    decidedBy = latest.principal;
    reason = latest.reason;
    at = latest.at;
  } else if (kind === 'granted' || kind === 'rejected') {
    decidedBy = item.decidedBy;
    reason = item.reason;
    at = item.resolvedAt ?? latest?.at ?? new Date(Date.now());
  } else if (kind === 'expired') {
    at = item.expiresAt ?? new Date(Date.now());
  }
  return Object.freeze({
    kind,
    approvalId: item.id,
    tool: item.tool,
    requester: item.requester,
    policy: item.policy,
    approvals: item.approvals.length,
    required: item.required,
    decidedBy,
    reason,
    at,
    url: publicUrl === null ? null : `${publicUrl}approvals/${encodeURIComponent(item.id)}`,
  });
}
