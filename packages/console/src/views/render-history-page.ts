import type { ApprovalItem } from '../console/approval-item.js';
import { escapeHtml } from '../security/escape-html.js';
import { renderVotes } from './describe-policy.js';
import { formatInstant } from './format-time.js';
import { renderName } from './render-name.js';
import { renderListTable } from './render-table.js';
import { renderToolLink } from './render-tool-link.js';
import { revealText } from './reveal-text.js';

const OUTCOMES: Readonly<Record<ApprovalItem['state'], string>> = Object.freeze({
  pending: 'Pending',
  expired: 'Expired undecided',
  granted: 'Granted',
  rejected: 'Rejected',
  other: 'Ended',
});

/** The outcome of an item in words. */
export function describeOutcome(item: ApprovalItem): string {
  return OUTCOMES[item.state];
}

/** The decided (and expired) items, most recent first. */
export function renderHistoryPage(items: readonly ApprovalItem[], base: string): string {
  const table =
    items.length === 0
      ? '<p class="empty">Nothing has been decided yet.</p>'
      : renderListTable(
          'Decided approvals, most recent first',
          ['Tool', 'Outcome', 'Requester', 'Decided by', 'Votes', 'Reason', 'When'],
          items.map((item) => [
            renderToolLink(item, base),
            `<span class="badge ${escapeHtml(item.state)}">${escapeHtml(describeOutcome(item))}</span>`,
            renderName(item.requester).withWarning,
            renderName(item.decidedBy).withWarning,
            renderVotes(item),
            item.reason === null ? '—' : revealText(item.reason).html,
            formatInstant(item.resolvedAt ?? item.expiresAt),
          ]),
        );
  return `<h1>History</h1>
<section id="history" data-live aria-label="Decided approvals">
${table}
</section>`;
}
