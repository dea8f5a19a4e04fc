import type { ApprovalItem } from '../console/approval-item.js';
import { argumentValuePath } from '../console/argument-value-route.js';
import { escapeHtml } from '../security/escape-html.js';
import { HIDDEN_CHARACTERS_WARNING, revealText } from './reveal-text.js';
import { showValue } from './show-value.js';

function renderFieldName(name: string): string {
  const shown = revealText(name);
  return shown.escaped === 0 ? shown.html : `${shown.html}<p class="warning">${escapeHtml(HIDDEN_CHARACTERS_WARNING)}</p>`;
}

/**
 * The arguments table of the detail page: each field of the held call (the redacted copy the gate
 * stored) with its value shown by {@link showValue} — hidden characters as escapes, long values
 * collapsed with a link to the whole value — and, after a grant with edits, the approved change.
 */
export function renderArguments(item: ApprovalItem, base: string): string {
  const names = [...new Set([...Object.keys(item.arguments), ...Object.keys(item.changes ?? {})])];
  if (names.length === 0) return '<p>The call has no arguments.</p>';
  const changes = item.changes ?? {};
  const hasChanges = Object.keys(changes).length > 0;
  const rows = names
    .map((name) => {
      const changed = Object.hasOwn(changes, name)
        ? `<td data-label="Approved change">${showValue(changes[name], null)}</td>`
        : hasChanges
          ? '<td data-label="Approved change">—</td>'
          : '';
      const held = Object.hasOwn(item.arguments, name) ? showValue(item.arguments[name], argumentValuePath(base, item.id, name)) : '—';
      return `<tr><th scope="row">${renderFieldName(name)}</th><td data-label="Value">${held}</td>${changed}</tr>`;
    })
    .join('\n');
  return `<table class="arguments">
<caption>Arguments as requested (secret fields are redacted)</caption>
<thead><tr><th scope="col">Field</th><th scope="col">Value</th>${hasChanges ? '<th scope="col">Approved change</th>' : ''}</tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}
