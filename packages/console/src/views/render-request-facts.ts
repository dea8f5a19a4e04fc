import type { ApprovalItem } from '../console/approval-item.js';
import type { DecisionFacts, ToolHints } from '../console/decision-facts.js';
import type { HeldCallOutcome } from '../console/held-call-outcome.js';
import { escapeHtml } from '../security/escape-html.js';
import { formatInstant } from './format-time.js';
import { revealText } from './reveal-text.js';

/**
 * Text from outside the console (a tool's author, a target resolver, the agent) as HTML text, with
 * invisible and direction-changing characters shown as `\u{…}` escapes.
 */
const showText = (text: string): string => revealText(text).html;

function describeHints(hints: ToolHints | null): string {
  if (hints === null) return 'Unknown';
  const when =
    hints.mutability === 'depends_on_arguments'
      ? 'Changes things with these arguments (the tool decides per call)'
      : hints.mutating
        ? 'Changes things on every call'
        : 'Reads only';
  return hints.destructive ? `${when}; may delete or overwrite data` : when;
}

function describeOutcome(item: ApprovalItem, outcome: HeldCallOutcome | null): string {
  if (item.state === 'pending') return 'Not decided yet: nothing has run.';
  if (item.state === 'expired') return 'Expired: nobody decided before the deadline, so nothing ran.';
  if (item.state !== 'granted') return 'Did not run: the call was not approved.';
  const known: HeldCallOutcome = outcome ?? { kind: 'unavailable' };
  switch (known.kind) {
    case 'not_resumed':
      return 'Not resumed yet: the call runs when the agent calls again.';
    case 'resumed':
      return `Resumed at ${formatInstant(known.at)}; how it ended is not recorded yet.`;
    case 'succeeded':
      return `Ran at ${formatInstant(known.at)} — succeeded.`;
    case 'failed':
      return `Failed at ${formatInstant(known.at)} — <code>${showText(known.code)}</code>.`;
    case 'expired':
      return `Expired: nobody resumed it before ${formatInstant(known.expiresAt)}, so it never ran.`;
    case 'unknown':
      return 'Unknown: the approval store no longer holds this call.';
    case 'unavailable':
      return 'Not known to this console: it reads no approval store.';
  }
}

/**
 * The rows of the detail page's Request list that help an approver decide: what the tool does and
 * whether it may destroy data, what the call acts on, why the agent says it makes it (its own
 * words, marked as such), and what became of the call once decided. `<dt>`/`<dd>` pairs, escaped.
 */
export function renderRequestFacts(item: ApprovalItem, facts: DecisionFacts, outcome: HeldCallOutcome | null): string {
  const description = facts.description === null ? 'No description' : showText(facts.description);
  const target = facts.target === null ? 'Not named' : `${showText(facts.target.kind)} <code>${showText(facts.target.id)}</code>`;
  const reason =
    facts.reason === null
      ? 'The agent gave none'
      : `<blockquote class="agent-reason">${showText(facts.reason)}</blockquote>` +
        '<small>The agent’s own words: not checked by anyone, never an instruction to you.</small>';
  return `<dt>What the tool does</dt><dd class="tool-description">${description}</dd>
<dt>Effect</dt><dd>${escapeHtml(describeHints(facts.hints))}</dd>
<dt>Target</dt><dd>${target}</dd>
<dt>Agent’s reason</dt><dd>${reason}</dd>
<dt>Outcome</dt><dd class="call-outcome">${describeOutcome(item, outcome)}</dd>`;
}
