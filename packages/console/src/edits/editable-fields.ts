import type { JsonSchema } from '@milpa/core';

/** The kinds of value a person can type into a form field. */
export type EditableKind = 'string' | 'integer' | 'number' | 'boolean';

/** One input field an approver may replace before granting. */
export interface EditableField {
  /** The argument name. */
  readonly name: string;
  /** How the typed text is read. */
  readonly kind: EditableKind;
  /** Allowed values when the schema lists them (`enum`), else null. */
  readonly choices: readonly (string | number | boolean)[] | null;
  /** The schema's description, or null. */
  readonly description: string | null;
}

const KINDS: ReadonlySet<string> = new Set(['string', 'integer', 'number', 'boolean']);

/** A redacted argument: a secret field is never editable, nor shown. */
function isSecret(schema: Readonly<Record<string, unknown>>): boolean {
  return schema['writeOnly'] === true || schema['x-milpa-secret'] === true;
}

function kindOf(schema: Readonly<Record<string, unknown>>): EditableKind | null {
  const type = schema['type'];
  const types = Array.isArray(type) ? type.filter((item) => item !== 'null') : [type];
  const [only] = types;
  return types.length === 1 && typeof only === 'string' && KINDS.has(only) ? (only as EditableKind) : null;
}

/**
 * The declared top-level input fields of a tool that a person can edit in a form: strings,
 * numbers, integers and booleans (optionally with `enum`), never secret ones (`writeOnly`,
 * `x-milpa-secret`). `only`, when given, narrows them to those names.
 */
export function editableFieldsOf(schema: JsonSchema, only: readonly string[] | null): readonly EditableField[] {
  const properties = schema['properties'];
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return [];
  const fields: EditableField[] = [];
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    if (only !== null && !only.includes(name)) continue;
    if (typeof property !== 'object' || property === null || Array.isArray(property)) continue;
    const declared = property as Readonly<Record<string, unknown>>;
    const kind = kindOf(declared);
    if (kind === null || isSecret(declared)) continue;
    const choices = Array.isArray(declared['enum'])
      ? declared['enum'].filter((value): value is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof value))
      : null;
    fields.push({ name, kind, choices, description: typeof declared['description'] === 'string' ? declared['description'] : null });
  }
  return fields;
}

const NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The typed text of a field as a value of its kind. Text that does not read as its kind is kept
 * as text, so the schema check reports it in its own words ("Expected integer, got string").
 */
export function readFieldValue(field: EditableField, typed: string): unknown {
  if (field.kind === 'string') return typed;
  const trimmed = typed.trim();
  if (field.kind === 'boolean') return trimmed === 'true' ? true : trimmed === 'false' ? false : typed;
  return NUMBER.test(trimmed) ? Number(trimmed) : typed;
}

/** How a value shows in a form field. */
export function formatFieldValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
