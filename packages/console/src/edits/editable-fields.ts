import { MilpaError, type JsonSchema } from '@milpa/core';
import { DEFAULT_SENSITIVE_FIELDS, SecretNames, topLevelSecretsOf } from '@milpa/core/kit';

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
  /** True for a secret field: it may be set, never shown (see {@link isSecretField}). */
  readonly secret: boolean;
  /** The property's own schema, for checking an edit of this field alone. */
  readonly schema: JsonSchema;
}

const KINDS: ReadonlySet<string> = new Set(['string', 'integer', 'number', 'boolean']);
const SECRET_NAMES = new SecretNames(DEFAULT_SENSITIVE_FIELDS);

/**
 * The secret names the runtime uses (`api_key`, `password`, `token`, …) with `extra` ones added, as
 * a registry's `sensitiveFields` adds them; without extras, the built-in names.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for an entry that is not a string with a letter or digit.
 */
export function secretNamesWith(extra: readonly string[] | undefined): SecretNames {
  if (extra === undefined) return SECRET_NAMES;
  if (!Array.isArray(extra)) {
    throw new MilpaError('createApprovalConsole sensitiveFields must be a list of argument names.', { code: 'INVALID_ARGUMENT' });
  }
  const names = new SecretNames(DEFAULT_SENSITIVE_FIELDS);
  for (const name of extra) {
    if (typeof name !== 'string' || !/[\p{L}\p{N}]/u.test(name)) {
      const got = JSON.stringify(name);
      throw new MilpaError(`createApprovalConsole sensitiveFields entries must be names with a letter or digit, got ${got}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    names.add(name);
  }
  return names;
}

/** Longest held value (as JSON) an approver may edit inline; longer ones are shown, never edited. */
export const MAX_EDITABLE_JSON_LENGTH = 16 * 1024;

/**
 * True when input field `name` of a tool with `schema` is secret, as the runtime's audit decides:
 * by its schema (`writeOnly`, `format: 'password'`, `x-milpa-secret`, in any branch) or by its
 * name (`api_key`, `db_password`, `sessionToken`, …, and the `names` given, see {@link secretNamesWith}).
 */
export function isSecretField(schema: JsonSchema | null, name: string, names: SecretNames = SECRET_NAMES): boolean {
  if (names.matches(name)) return true;
  if (schema === null) return false;
  const secrets = topLevelSecretsOf(schema);
  return secrets.declared.get(name) ?? secrets.undeclaredSecret;
}

/** True when `value` is too long to edit in a form (its JSON is over {@link MAX_EDITABLE_JSON_LENGTH} characters). */
export function isTooLongToEdit(value: unknown): boolean {
  if (value === undefined) return false;
  try {
    return (JSON.stringify(value)?.length ?? 0) > MAX_EDITABLE_JSON_LENGTH;
  } catch {
    return true;
  }
}

function kindOf(schema: Readonly<Record<string, unknown>>): EditableKind | null {
  const type = schema['type'];
  const types = Array.isArray(type) ? type.filter((item) => item !== 'null') : [type];
  const [only] = types;
  return types.length === 1 && typeof only === 'string' && KINDS.has(only) ? (only as EditableKind) : null;
}

/**
 * The declared top-level input fields of a tool that a person can edit in a form: strings,
 * numbers, integers and booleans (optionally with `enum`). Secret ones are included and marked
 * `secret`: an approver may set them, and nobody sees them afterwards. `only`, when given, narrows
 * them to those names; `names` are the secret names (default the built-in ones).
 */
export function editableFieldsOf(
  schema: JsonSchema,
  only: readonly string[] | null,
  names: SecretNames = SECRET_NAMES,
): readonly EditableField[] {
  const properties = schema['properties'];
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return [];
  const fields: EditableField[] = [];
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    if (only !== null && !only.includes(name)) continue;
    if (typeof property !== 'object' || property === null || Array.isArray(property)) continue;
    const declared = property as Readonly<Record<string, unknown>>;
    const kind = kindOf(declared);
    if (kind === null) continue;
    const choices = Array.isArray(declared['enum'])
      ? declared['enum'].filter((value): value is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof value))
      : null;
    fields.push({
      name,
      kind,
      choices,
      description: typeof declared['description'] === 'string' ? declared['description'] : null,
      secret: isSecretField(schema, name, names),
      schema: declared as JsonSchema,
    });
  }
  return fields;
}

/** How a value shows in a form field. */
export function formatFieldValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
