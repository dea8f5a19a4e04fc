import type { ApprovalItem } from '../console/approval-item.js';
import { valueInEffect } from '../edits/approval-edits.js';
import { formatFieldValue, type EditableField } from '../edits/editable-fields.js';
import { escapeHtml } from '../security/escape-html.js';
import { renderName } from './render-name.js';
import { holdsHiddenCharacters } from './reveal-text.js';
import { approvalPath } from './render-decision-forms.js';

const EDIT_BOX_WARNING =
  'This value holds invisible or direction-changing characters. The box above shows them unescaped, so the text may look ' +
  'reordered or shorter than it is; the detail page shows them as \\u{…} escapes.';

/** What {@link renderEditPage} shows. */
export interface EditPageView {
  /** The held call (secret values an approver set already hidden). */
  readonly item: ApprovalItem;
  /** The console's base path, ending in `/`. */
  readonly base: string;
  /** The CSRF token for the form. */
  readonly csrfToken: string;
  /** The fingerprint of the proposal the edit starts from. */
  readonly proposal: string;
  /** The fields the approver may change. */
  readonly fields: readonly EditableField[];
  /** What is wrong, by field name (empty on a first visit). */
  readonly errors: ReadonlyMap<string, string>;
  /** What is wrong with the edit as a whole, or null. */
  readonly summary: string | null;
  /** What the approver typed last time, by field name (never a secret). */
  readonly typed: ReadonlyMap<string, string>;
  /** Arguments of the call that cannot be edited here (objects, arrays, long or redacted values); they run as requested. */
  readonly fixed: readonly string[];
}

interface FieldParts {
  readonly id: string;
  readonly name: string;
  readonly describedBy: string;
  readonly invalid: string;
}

function renderSelect(field: EditableField, parts: FieldParts, value: string, present: boolean): string {
  const choices = field.choices ?? [true, false];
  const unset = present ? '' : `<option value=""${value === '' ? ' selected' : ''}>not set</option>`;
  const options = choices
    .map((choice) => {
      const text = formatFieldValue(choice);
      return `<option value="${escapeHtml(text)}"${text === value ? ' selected' : ''}>${escapeHtml(text)}</option>`;
    })
    .join('');
  return `<select id="${parts.id}" name="${parts.name}"${parts.describedBy}${parts.invalid}>${unset}${options}</select>`;
}

function renderControl(field: EditableField, parts: FieldParts, item: ApprovalItem, typed: string | undefined): string {
  const { value, present } = valueInEffect(item, field.name);
  const text = typed ?? formatFieldValue(value);
  const common = `id="${parts.id}" name="${parts.name}"${parts.describedBy}${parts.invalid}`;
  if (field.secret) return `<input ${common} type="password" autocomplete="new-password" value="">`;
  if (field.choices !== null || field.kind === 'boolean') return renderSelect(field, parts, text, present);
  if (field.kind === 'string') {
    const rows = Math.min(12, Math.max(2, text.split('\n').length));
    // The HTML parser drops one newline right after <textarea>: this one, so a value's own leading newline survives.
    return `<textarea ${common} rows="${rows}">\n${escapeHtml(text)}</textarea>`;
  }
  const mode = field.kind === 'integer' ? 'numeric' : 'decimal';
  return `<input ${common} type="text" inputmode="${mode}" value="${escapeHtml(text)}">`;
}

function stateHint(field: EditableField, item: ApprovalItem): string {
  const { present } = valueInEffect(item, field.name);
  if (field.secret) {
    return `Secret, ${present ? 'set' : 'not set'}. Leave it empty to keep it unchanged; what you type is never shown again.`;
  }
  if (present) return '';
  return field.choices !== null || field.kind === 'boolean'
    ? 'Not set; it stays unset unless you choose a value.'
    : 'Not set; leave it empty to keep it unset.';
}

/** A warning under a control whose value in effect holds characters the control would show hidden or reordered. */
function hiddenCharactersWarning(field: EditableField, item: ApprovalItem): string {
  if (field.secret) return '';
  const { value, present } = valueInEffect(item, field.name);
  if (!present || !holdsHiddenCharacters(formatFieldValue(value))) return '';
  return `<p class="warning">${escapeHtml(EDIT_BOX_WARNING)}</p>`;
}

function renderField(field: EditableField, index: number, view: EditPageView, firstInvalid: string | null): string {
  const id = `edit-field-${index}`;
  const error = view.errors.get(field.name);
  const hint = [field.description ?? '', stateHint(field, view.item)].filter((text) => text !== '').join(' ');
  const described = [hint === '' ? null : `${id}-hint`, error === undefined ? null : `${id}-error`].filter((part) => part !== null);
  const parts: FieldParts = {
    id,
    name: escapeHtml(`edit.${field.name}`),
    describedBy: described.length === 0 ? '' : ` aria-describedby="${described.join(' ')}"`,
    invalid: error === undefined ? '' : ` aria-invalid="true"${firstInvalid === field.name ? ' autofocus' : ''}`,
  };
  return (
    `<div class="field${error === undefined ? '' : ' invalid'}"><label for="${id}">${escapeHtml(field.name)} ` +
    `<span class="kind">(${escapeHtml(field.kind)})</span></label>` +
    renderControl(field, parts, view.item, field.secret ? undefined : view.typed.get(field.name)) +
    hiddenCharactersWarning(field, view.item) +
    (error === undefined ? '' : `<p class="field-error" id="${id}-error">${escapeHtml(error)}</p>`) +
    (hint === '' ? '' : `<small id="${id}-hint">${escapeHtml(hint)}</small>`) +
    `</div>`
  );
}

function renderErrorSummary(view: EditPageView): string {
  if (view.errors.size === 0 && view.summary === null) return '';
  const links = view.fields
    .map((field, index) => ({ field, index, error: view.errors.get(field.name) }))
    .filter((entry) => entry.error !== undefined)
    .map((entry) => `<li><a href="#edit-field-${entry.index}">${escapeHtml(entry.field.name)}: ${escapeHtml(entry.error!)}</a></li>`)
    .join('');
  const intro =
    view.errors.size === 0
      ? ''
      : `<p>${view.errors.size === 1 ? 'One field needs' : `${view.errors.size} fields need`} fixing; nothing was recorded.</p>`;
  return (
    `<div class="message error" role="alert">${intro}${links === '' ? '' : `<ul>${links}</ul>`}` +
    `${view.summary === null ? '' : `<p>${escapeHtml(view.summary)}</p>`}</div>`
  );
}

/**
 * The edit step of a held call: one field per editable argument (text in a textarea that keeps
 * line breaks, "not set" for optional fields the call does not have, a password box for secret
 * fields), posted to the review step. Refused edits come back with the message on each field, the
 * field marked invalid and focused, and a summary linking to them.
 */
export function renderEditPage(view: EditPageView): string {
  const { item, base } = view;
  const fixed =
    view.fixed.length === 0
      ? ''
      : `<p>Not editable here, so they run as requested: ${view.fixed.map((name) => `<code>${escapeHtml(name)}</code>`).join(', ')}.</p>`;
  const firstInvalid = view.fields.find((field) => view.errors.has(field.name))?.name ?? null;
  return `<h1>Edit <code>${renderName(item.tool).html}</code> before granting</h1>${renderName(item.tool).warning}
${renderErrorSummary(view)}
<p>Change the values the call should run with. Nothing is recorded until you review the changes and grant them.</p>
${fixed}
<form method="post" action="${escapeHtml(approvalPath(base, item.id, 'review'))}" class="edit">
<input type="hidden" name="_csrf" value="${escapeHtml(view.csrfToken)}">
<input type="hidden" name="proposal" value="${escapeHtml(view.proposal)}">
<fieldset><legend>Arguments</legend>
${view.fields.map((field, index) => renderField(field, index, view, firstInvalid)).join('\n')}
</fieldset>
<button type="submit" class="primary">Review changes</button>
<a href="${escapeHtml(approvalPath(base, item.id))}">Cancel</a>
</form>`;
}
