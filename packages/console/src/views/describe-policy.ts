import type { ApprovalItem } from '../console/approval-item.js';
import { renderName } from './render-name.js';

/** The policy in words: "dual: 2 approvals by people other than the requester". */
export function describePolicy(item: ApprovalItem): string {
  const who = item.required === 1 ? '1 approval' : `${item.required} approvals`;
  return `${item.policy}: ${who} by people other than the requester`;
}

/** The votes so far as HTML: "1 of 2 (user:ana)". */
export function renderVotes(item: ApprovalItem): string {
  const names = item.approvals.map((approval) => renderName(approval.principal).html).join(', ');
  return `${item.approvals.length} of ${item.required}${names === '' ? '' : ` (${names})`}`;
}
