import type { InvocationHistory } from '@milpa/core';
import type { ApprovalItem } from '../console/approval-item.js';
import { NO_FACTS, type DecisionFacts } from '../console/decision-facts.js';
import type { HeldCallOutcome } from '../console/held-call-outcome.js';
import type { EditableField } from '../edits/editable-fields.js';
import { escapeHtml } from '../security/escape-html.js';
import { describePolicy, renderVotes } from './describe-policy.js';
import { describeOutcome } from './render-history-page.js';
import { renderArguments } from './render-arguments.js';
import { renderName } from './render-name.js';
import { revealText } from './reveal-text.js';
import { formatAge, formatDeadline, formatInstant } from './format-time.js';
import { renderDecisionForms } from './render-decision-forms.js';
import { renderRequestFacts } from './render-request-facts.js';

/** A message shown above the detail view. */
export interface PageMessage {
  /** `error` is announced at once (`role="alert"`), `notice` politely. */
  readonly kind: 'error' | 'notice';
  /** Plain text. */
  readonly text: string;
}

/** What {@link renderDetailPage} shows. */
export interface DetailView {
  /** The held call. */
  readonly item: ApprovalItem;
  /** The console's base path, ending in `/`. */
  readonly base: string;
  /** The current time in milliseconds. */
  readonly now: number;
  /** The signed-in approver. */
  readonly principal: string;
  /** The CSRF token for the forms. */
  readonly csrfToken: string;
  /** The fields the approver may replace (empty when edits are off for this tool). */
  readonly editable: readonly EditableField[];
  /** The fingerprint of the proposal shown (the held call with its changes in effect), which a plain grant approves. */
  readonly proposal: string;
  /** The run's history, null without a run, `unavailable` without a history store. */
  readonly history: InvocationHistory | null | 'unavailable';
  /** A message from the last action, or null. */
  readonly message: PageMessage | null;
  /** What the approver needs to decide (default: what the item's payload holds). */
  readonly facts?: DecisionFacts;
  /** What became of a granted call, from the approval store; null or absent when not read. */
  readonly outcome?: HeldCallOutcome | null;
}

function renderHistory(view: DetailView): string {
  if (view.item.runId === null) return '<p>This call belongs to no agent run.</p>';
  if (view.history === 'unavailable') return "<p>The run's history is not available to this console.</p>";
  if (view.history === null) return "<p>The run's history is unknown (the history store does not know this run).</p>";
  const observations = view.history.observations;
  const note = view.history.complete ? '' : '<p>This history may be incomplete.</p>';
  if (observations.length === 0) return `<p>No earlier calls in this run.</p>${note}`;
  const rows = observations
    .map(
      (observation, index) =>
        `<tr><td data-label="#">${index + 1}</td><th scope="row">${renderName(observation.tool).withWarning}</th>` +
        `<td data-label="Outcome">${escapeHtml(observation.outcome)}</td><td data-label="Target">${
          observation.target === null ? '—' : `${revealText(observation.target.kind).html} ${revealText(observation.target.id).html}`
        }</td></tr>`,
    )
    .join('\n');
  return `<table class="history">
<caption>Earlier calls in run ${renderName(view.item.runId).html}, oldest first</caption>
<thead><tr><th scope="col">#</th><th scope="col">Tool</th><th scope="col">Outcome</th><th scope="col">Target</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>${note}`;
}

function renderStatus(view: DetailView): string {
  const { item, now } = view;
  let summary: string;
  if (item.state === 'pending') summary = `Waiting for approval: ${renderVotes(item)} approvals so far.`;
  else if (item.state === 'expired') summary = 'Expired before enough people approved it; nothing ran. The caller has to ask again.';
  else
    summary = `${escapeHtml(describeOutcome(item))} by ${renderName(item.decidedBy ?? 'nobody').withWarning} ${formatInstant(
      item.resolvedAt,
    )}${item.reason === null ? '' : `: ${revealText(item.reason).html}`}.`;
  const votes = item.approvals
    .map(
      (approval) =>
        `<li>${renderName(approval.principal).withWarning} ` +
        `approved ${formatInstant(approval.at)}${approval.reason === null ? '' : `: ${revealText(approval.reason).html}`}</li>`,
    )
    .join('');
  return `<section id="status" data-live aria-labelledby="status-heading" class="status ${escapeHtml(item.state)}">
<h2 id="status-heading">Status</h2>
<p>${summary}</p>
${votes === '' ? '' : `<ul class="votes">${votes}</ul>`}
<p>Expires ${formatDeadline(item.expiresAt, now)}.</p>
</section>`;
}

/** The detail view of one held call: status, who asked and how, arguments, the run's history, the decision forms. */
export function renderDetailPage(view: DetailView): string {
  const { item, now } = view;
  const message =
    view.message === null
      ? ''
      : `<div class="message ${view.message.kind}" ${view.message.kind === 'error' ? 'role="alert"' : 'role="status"'}>` +
        `<p>${escapeHtml(view.message.text)}</p></div>`;
  return `<h1>Approve <code>${renderName(item.tool).html}</code>?</h1>
${renderName(item.tool).warning}${message}
${renderStatus(view)}
<section aria-labelledby="request-heading">
<h2 id="request-heading">Request</h2>
<dl class="facts">
<dt>Tool</dt><dd>${renderName(item.tool).html}</dd>
${renderRequestFacts(item, view.facts ?? item.facts ?? NO_FACTS, view.outcome ?? null)}
<dt>Requester</dt><dd>${renderName(item.requester).withWarning}</dd>
<dt>Channel</dt><dd>${renderName(item.channel).withWarning}</dd>
<dt>Run</dt><dd>${renderName(item.runId).withWarning}</dd>
<dt>Call request id</dt><dd>${renderName(item.requestId).withWarning}</dd>
<dt>Opened</dt><dd>${formatAge(item.createdAt, now)}</dd>
<dt>Asked by</dt><dd>The approval gate, which held the call as verification request <code>${renderName(item.subject).html}</code></dd>
<dt>Rule</dt><dd>${escapeHtml(describePolicy(item))}</dd>
<dt>Approval id</dt><dd><code>${renderName(item.id).html}</code></dd>
</dl>
</section>
<section aria-labelledby="arguments-heading">
<h2 id="arguments-heading">Arguments</h2>
${renderArguments(item, view.base)}
</section>
<section aria-labelledby="run-heading">
<h2 id="run-heading">Run history</h2>
${renderHistory(view)}
</section>
${renderDecisionForms({ ...view, canEdit: view.editable.length > 0 })}`;
}
