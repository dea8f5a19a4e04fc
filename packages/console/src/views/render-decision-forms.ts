import type { ApprovalItem } from '../console/approval-item.js';
import { escapeHtml } from '../security/escape-html.js';

/** What {@link renderDecisionForms} shows. */
export interface DecisionFormsView {
  /** The held call. */
  readonly item: ApprovalItem;
  /** The console's base path, ending in `/`. */
  readonly base: string;
  /** The signed-in approver. */
  readonly principal: string;
  /** The CSRF token for the forms. */
  readonly csrfToken: string;
  /** The fingerprint of the proposal the page shows; the Grant form approves exactly that. */
  readonly proposal: string;
  /** True when the approver may edit arguments before granting (the page links to the edit step). */
  readonly canEdit: boolean;
}

/** The URL of approval `id`'s page, or of one of its steps (`edit`, `review`, `grant`, `reject`). */
export function approvalPath(base: string, id: string, step?: string): string {
  return `${base}approvals/${encodeURIComponent(id)}${step === undefined ? '' : `/${step}`}`;
}

/**
 * The Decision section of a detail page: a Grant form that carries no argument values (only the
 * CSRF token, an optional reason and the fingerprint of the proposal shown, so it grants exactly
 * what the page showed), a link to the edit step, and a Reject form that needs a reason.
 */
export function renderDecisionForms(view: DecisionFormsView): string {
  const { item, base, csrfToken } = view;
  const action = (verb: string): string => escapeHtml(approvalPath(base, item.id, verb));
  if (item.state !== 'pending') {
    return (
      `<section aria-labelledby="decide-heading"><h2 id="decide-heading">Decision</h2>` +
      `<p>This request is closed: nothing more can be decided on it.</p></section>`
    );
  }
  const own = item.requester !== null && item.requester === view.principal;
  const voted = item.approvals.some((approval) => approval.principal === view.principal);
  const notes: string[] = [];
  if (own) notes.push('You asked for this call, so you cannot approve it: someone else has to. You may still reject (withdraw) it.');
  if (voted) notes.push(`You have approved this request already; it needs ${item.required} approvals from different people.`);
  const asShown =
    item.changes === null
      ? 'Grant approves the arguments exactly as requested.'
      : 'Grant approves the arguments with the approved changes shown above.';
  const edit =
    view.canEdit && !own
      ? `<p class="edit-step"><a href="${action('edit')}">Edit arguments…</a> ` +
        'Change values first; you review the changes before anything is recorded.</p>'
      : '';
  return (
    `<section aria-labelledby="decide-heading">
<h2 id="decide-heading">Decision</h2>
${notes.map((note) => `<p class="note" id="decide-note">${escapeHtml(note)}</p>`).join('')}
<p id="grant-scope">${asShown}</p>
${edit}
<div class="forms">
<form method="post" action="${action('grant')}" class="grant">
<input type="hidden" name="_csrf" value="${escapeHtml(csrfToken)}">
<input type="hidden" name="proposal" value="${escapeHtml(view.proposal)}">
<div class="field"><label for="grant-reason">Reason (optional)</label><textarea id="grant-reason" name="reason" rows="2" ` +
    `maxlength="1000"></textarea></div>
<button type="submit" class="primary" aria-describedby="${own || voted ? 'decide-note ' : ''}grant-scope"${voted ? ' disabled' : ''}>` +
    `Grant</button>
</form>
<form method="post" action="${action('reject')}" class="reject">
<input type="hidden" name="_csrf" value="${escapeHtml(csrfToken)}">
<div class="field"><label for="reject-reason">Reason (required)</label><textarea id="reject-reason" name="reason" rows="2" ` +
    `maxlength="1000" required></textarea></div>
<button type="submit" class="danger">Reject</button>
</form>
</div>
</section>`
  );
}
