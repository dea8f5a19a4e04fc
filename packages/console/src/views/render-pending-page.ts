import type { ApprovalItem } from '../console/approval-item.js';
import { escapeHtml } from '../security/escape-html.js';
import { describePolicy, renderVotes } from './describe-policy.js';
import { formatAge, formatDeadline } from './format-time.js';
import { renderName } from './render-name.js';
import { renderListTable } from './render-table.js';
import { renderToolLink } from './render-tool-link.js';
import { revealText } from './reveal-text.js';
import { summarizeArguments } from './summarize-arguments.js';

/** The pending list: one row per held call, oldest first, each with a summary of its arguments and a link to its detail view. */
export function renderPendingPage(items: readonly ApprovalItem[], base: string, now: number): string {
  const table =
    items.length === 0
      ? '<p class="empty">Nothing is waiting for approval.</p>'
      : renderListTable(
          items.length === 1 ? '1 call waits for approval' : `${items.length} calls wait for approval`,
          ['Tool', 'Arguments', 'Requester', 'Channel', 'Run', 'Age', 'Expires', 'Policy', 'Votes'],
          items.map((item) => [
            renderToolLink(item, base),
            `<span class="summary">${revealText(summarizeArguments(item.arguments)).html}</span>`,
            renderName(item.requester).withWarning,
            renderName(item.channel).withWarning,
            renderName(item.runId).withWarning,
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
