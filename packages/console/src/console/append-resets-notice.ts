import type { ProposalSeal } from '../edits/proposal-seal.js';
import { describeResets } from '../views/render-review-page.js';
import type { ApprovalItem } from './approval-item.js';

/**
 * `notice` (the words after a decision) followed by who lost their approval to the grant just
 * recorded, when the page address carries that (`resets`, sealed by the console for this approver
 * and item, so a crafted link cannot put words in the console's mouth).
 */
export function appendResetsNotice(
  notice: string | undefined,
  params: URLSearchParams,
  item: ApprovalItem,
  principal: string,
  seal: ProposalSeal,
): string | undefined {
  const token = params.get('resets');
  if (notice === undefined || token === null) return notice;
  const opened = seal.open(token, item.id, principal, Date.now());
  if (!opened.ok || opened.edit.base !== 'notice' || opened.edit.resets.length === 0) return notice;
  return `${notice} ${describeResets(opened.edit.resets, item.required)}`;
}
