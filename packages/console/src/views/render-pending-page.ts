import type { ApprovalItem } from '../console/approval-item.js';
import { escapeHtml } from '../security/escape-html.js';
import { describePolicy, renderVotes } from './describe-policy.js';
import { formatAge, formatDeadline } from './format-time.js';
import { renderListTable } from './render-table.js';

/** The pending list: one row per held call, oldest first, each linking to its detail view. */
export function renderPendingPage(items: readonly ApprovalItem[], base: string, now: number): string {
  const table =
    items.length === 0
      ? '<p class="empty">Nothing is waiting for approval.</p>'
      : renderListTable(
          items.length === 1 ? '1 call waits for approval' : `${items.length} calls wait for approval`,
          ['Tool', 'Requester', 'Channel', 'Run', 'Age', 'Expires', 'Policy', 'Votes'],
          items.map((item) => [
            `<a href="${escapeHtml(`${base}approvals/${encodeURIComponent(item.id)}`)}">${escapeHtml(item.tool)}</a>`,
            escapeHtml(item.requester ?? '—'),
            escapeHtml(item.channel ?? '—'),
            escapeHtml(item.runId ?? '—'),
            formatAge(item.createdAt, now),
            formatDeadline(item.expiresAt, now),
            escapeHtml(describePolicy(item)),
            renderVotes(item),
          ]),
        );
  return `<h1>Pending approvals</h1>
<section id="pending" data-live aria-label="Pending approvals">
${table}
</section>`;
}
