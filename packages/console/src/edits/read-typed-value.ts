import { formatFieldValue, type EditableField } from './editable-fields.js';

/** What one edit form field asks for: nothing, a new value, or text that is not a value of its kind. */
export type TypedValue =
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'invalid'; readonly message: string };

const UNCHANGED: TypedValue = Object.freeze({ kind: 'unchanged' });
const NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * `text` with every line break as `\n`. Browsers submit a textarea's line breaks as CRLF, and the
 * HTML parser turns a CR (alone or before LF) into LF when it reads the page, so a held value is
 * compared with what the form sent in this form.
 */
export function normalizeLineBreaks(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

function readNumber(field: EditableField, typed: string): TypedValue {
  const trimmed = typed.trim();
  if (!NUMBER.test(trimmed)) {
    return { kind: 'invalid', message: field.kind === 'integer' ? 'Enter a whole number, like 3.' : 'Enter a number, like 3 or 0.5.' };
  }
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { kind: 'invalid', message: 'This number is too large.' };
  if (field.kind === 'integer') {
    if (!Number.isInteger(value)) return { kind: 'invalid', message: 'Enter a whole number, like 3.' };
    // Past 2^53 a typed integer would silently become a neighbour: refuse rather than run another number.
    if (!Number.isSafeInteger(value)) {
      return { kind: 'invalid', message: 'This whole number is too large to be kept exactly (at most 9007199254740991 either way).' };
    }
  }
  return { kind: 'value', value };
}

function readChoice(field: EditableField, typed: string): TypedValue {
  const choices = field.choices ?? [true, false];
  const found = choices.find((choice) => formatFieldValue(choice) === typed);
  if (found === undefined) return { kind: 'invalid', message: 'Choose one of the listed values.' };
  return { kind: 'value', value: found };
}

/**
 * Reads what the form sent for `field` (`typed`), given the value in effect (`current`, `present`
 * when the call has it at all). An untouched field is `unchanged`: an absent optional field left
 * empty (or "not set"), a number equal by value, text equal up to the form's line breaks, an
 * empty secret. Anything else is the new value, or `invalid` with what to fix.
 */
export function readTypedValue(field: EditableField, typed: string, current: unknown, present: boolean): TypedValue {
  if (field.secret) {
    if (typed === '') return UNCHANGED;
    return field.kind === 'string' ? { kind: 'value', value: typed } : readKind(field, typed);
  }
  if (field.choices !== null || field.kind === 'boolean') {
    if (typed === '') return UNCHANGED;
    const read = readChoice(field, typed);
    return read.kind === 'value' && present && Object.is(read.value, current) ? UNCHANGED : read;
  }
  if (field.kind === 'string') {
    const text = normalizeLineBreaks(typed);
    if (!present) return text === '' ? UNCHANGED : { kind: 'value', value: text };
    const shown = normalizeLineBreaks(formatFieldValue(current));
    return text === shown ? UNCHANGED : { kind: 'value', value: text };
  }
  if (typed.trim() === '' && !present) return UNCHANGED;
  if (present && typed === formatFieldValue(current)) return UNCHANGED;
  const read = readNumber(field, typed);
  return read.kind === 'value' && present && read.value === current ? UNCHANGED : read;
}

function readKind(field: EditableField, typed: string): TypedValue {
  return field.kind === 'boolean' || field.choices !== null ? readChoice(field, typed) : readNumber(field, typed);
}
