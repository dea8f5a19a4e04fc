import type { ApprovalItem } from '../console/approval-item.js';
import { SECRET_SET_TEXT } from '../edits/approval-edits.js';
import { escapeHtml } from '../security/escape-html.js';
import { renderName } from './render-name.js';
import { HIDDEN_CHARACTERS_WARNING, revealText } from './reveal-text.js';
import { approvalPath } from './render-decision-forms.js';

/** One changed field on the review page. */
export interface ReviewRow {
  /** The argument name. */
  readonly name: string;
  /** The value as the call was held, or undefined when it was not set. */
  readonly held: unknown;
  /** The value the grant approves. */
  readonly proposed: unknown;
  /** True for a secret field: neither value is shown. */
  readonly secret: boolean;
}

/** What {@link renderReviewPage} shows. */
export interface ReviewPageView {
  /** The held call (secret values already hidden). */
  readonly item: ApprovalItem;
  /** The console's base path, ending in `/`. */
  readonly base: string;
  /** The CSRF token for the confirm form. */
  readonly csrfToken: string;
  /** The fields the grant changes from the call as held. */
  readonly rows: readonly ReviewRow[];
  /** The sealed changes the confirm form carries. */
  readonly sealed: string;
  /** Approvers whose grants stop counting when this grant is recorded (the approvals start over). */
  readonly resets: readonly string[];
}

function renderCell(value: unknown, secret: boolean, present: boolean): string {
  if (!present) return '<em>not set</em>';
  if (secret) return `<em>${escapeHtml(SECRET_SET_TEXT)}</em>`;
  // JSON shows a string's line breaks and spaces as they will run, and tells "1" from 1.
  const shown = revealText(JSON.stringify(value) ?? String(value));
  const warning = shown.escaped === 0 ? '' : `<p class="warning">${escapeHtml(HIDDEN_CHARACTERS_WARNING)}</p>`;
  return `${warning}<code>${shown.html}</code>`;
}

/** What an approver is told when their edit sets earlier grants aside. */
export function describeResets(resets: readonly string[], required: number): string {
  const who = resets.map((principal) => `${principal}'s approval`).join(' and ');
  const verb = resets.length === 1 ? 'no longer counts' : 'no longer count';
  return `${who} ${verb}: they approved other arguments. The approvals start over (${required} needed from different people).`;
}

/**
 * The review step of an edit: each changed field as held and as proposed (secret values shown only
 * as set), a warning when the edit starts a shared approval over, and the confirm form that grants
 * with these changes. The changes travel sealed, so nothing typed appears in the page.
 */
export function renderReviewPage(view: ReviewPageView): string {
  const { item, base } = view;
  const describedBy = view.resets.length === 0 ? '' : ' aria-describedby="review-resets"';
  const rows = view.rows
    .map(
      (row) =>
        `<tr><th scope="row">${revealText(row.name).html}</th>` +
        `<td data-label="As held">${renderCell(row.held, row.secret, row.held !== undefined)}</td>` +
        `<td data-label="Proposed">${renderCell(row.proposed, row.secret, true)}</td></tr>`,
    )
    .join('\n');
  const warning =
    view.resets.length === 0
      ? ''
      : `<p class="message error" id="review-resets">${escapeHtml(describeResets(view.resets, item.required))}</p>`;
  return (
    `<h1>Review changes to <code>${renderName(item.tool).html}</code></h1>${renderName(item.tool).warning}
<p>Granting runs the call with these changes; every other argument stays as requested.</p>
<table class="arguments diff">
<caption>Changed arguments</caption>
<thead><tr><th scope="col">Field</th><th scope="col">As held</th><th scope="col">Proposed</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
${warning}
<form method="post" action="${escapeHtml(approvalPath(base, item.id, 'grant'))}" class="grant">
<input type="hidden" name="_csrf" value="${escapeHtml(view.csrfToken)}">
<input type="hidden" name="sealed" value="${escapeHtml(view.sealed)}">
<div class="field"><label for="grant-reason">Reason (optional)</label><textarea id="grant-reason" name="reason" rows="2" ` +
    `maxlength="1000"></textarea></div>
<button type="submit" class="primary"${describedBy}>Grant with these changes</button>
<a href="${escapeHtml(approvalPath(base, item.id, 'edit'))}">Change the edits</a>
<a href="${escapeHtml(approvalPath(base, item.id))}">Cancel</a>
</form>`
  );
}
