import type { JsonSchema } from '@milpa/core';
import type { ApprovalItem } from '../console/approval-item.js';
import type { ConsoleSchemaValidator, ConsoleToolCatalog } from '../console/approval-console-options.js';
import { editableFieldsOf, isSecretField, isTooLongToEdit, secretNamesWith, type EditableField } from './editable-fields.js';
import { readTypedValue } from './read-typed-value.js';

/** What the runtime puts in place of a secret argument (or a secret inside a value) before anyone sees it. */
const REDACTED_PLACEHOLDER = '***REDACTED***';

/** What the console shows in place of a secret value an approver set. */
export const SECRET_SET_TEXT = 'set (hidden)';

/** True when the shown value is, or holds, a redacted secret: the held value differs from what the page shows. */
function holdsRedaction(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(REDACTED_PLACEHOLDER);
  if (typeof value !== 'object' || value === null) return false;
  try {
    return JSON.stringify(value).includes(REDACTED_PLACEHOLDER);
  } catch {
    return true;
  }
}

/** The value of field `name` in effect (the latest grant's change, else the held argument), and whether it is set at all. */
export function valueInEffect(item: ApprovalItem, name: string): { readonly value: unknown; readonly present: boolean } {
  if (item.changes !== null && Object.hasOwn(item.changes, name)) return { value: item.changes[name], present: true };
  return { value: item.arguments[name], present: Object.hasOwn(item.arguments, name) };
}

/** An edit form read: the fields it changes, or what is wrong with it. */
export type EditReading =
  | {
      /** The edits are acceptable. */
      readonly ok: true;
      /** The fields this approver changed, with their new values (empty: nothing changed). */
      readonly fresh: Readonly<Record<string, unknown>>;
      /** The held call's changes after the grant: the ones in effect with `fresh` over them. */
      readonly changes: Readonly<Record<string, unknown>>;
    }
  | {
      /** The edits are refused; nothing may be recorded. */
      readonly ok: false;
      /** What is wrong, by field name. */
      readonly errors: ReadonlyMap<string, string>;
      /** What is wrong with the edit as a whole, or null. */
      readonly summary: string | null;
      /** What the approver typed, by field name, to show again (never a secret field). */
      readonly typed: ReadonlyMap<string, string>;
    };

/** Where {@link ApprovalEdits} learns which fields may be edited and how they are checked. */
export interface ApprovalEditsSettings {
  /** Tool schemas; without them nothing is editable. */
  readonly tools: ConsoleToolCatalog | undefined;
  /** Checks edited fields; without it nothing is editable. */
  readonly validator: ConsoleSchemaValidator | undefined;
  /** The host's choice of editable fields per tool (null: none). */
  readonly editableFields: ((tool: string) => readonly string[] | null) | undefined;
  /** Argument names secret besides the built-in ones (the registry's `sensitiveFields`). */
  readonly sensitiveFields?: readonly string[] | undefined;
}

/**
 * The edits an approver may make to a held call's arguments before granting it: which declared
 * fields are offered (never one holding a redacted value; secret ones only to be set), reading an
 * edit form into changes checked against the tool's schema on the server, and hiding secret
 * values that approvers set.
 */
export class ApprovalEdits {
  readonly #settings: ApprovalEditsSettings;
  readonly #secretNames: ReturnType<typeof secretNamesWith>;

  /**
   * Edits as `settings` allow them.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a `sensitiveFields` entry that is not a name.
   */
  constructor(settings: ApprovalEditsSettings) {
    this.#settings = settings;
    this.#secretNames = secretNamesWith(settings.sensitiveFields);
  }

  #schemaOf(tool: string): JsonSchema | null {
    return this.#settings.tools?.getDefinition(tool)?.inputSchema ?? null;
  }

  /** The fields of `item` the approver may replace (empty when edits are off for its tool). */
  fieldsFor(item: ApprovalItem): readonly EditableField[] {
    const { validator, editableFields } = this.#settings;
    const schema = this.#schemaOf(item.tool);
    if (schema === null || validator === undefined) return [];
    const only = editableFields === undefined ? null : editableFields(item.tool);
    if (editableFields !== undefined && only === null) return [];
    // A field the runtime redacted inside an ordinary value is never edited: the edit would start
    // from the redacted text. A secret field is only ever set (its value is never shown).
    return editableFieldsOf(schema, only, this.#secretNames).filter((field) => {
      const { value } = valueInEffect(item, field.name);
      return field.secret || (!holdsRedaction(value) && !isTooLongToEdit(value));
    });
  }

  /** True when input field `name` of `item`'s tool is secret (by schema or by name). */
  isSecret(item: ApprovalItem, name: string): boolean {
    return isSecretField(this.#schemaOf(item.tool), name, this.#secretNames);
  }

  /** `item` with every secret value an approver set shown as {@link SECRET_SET_TEXT}. */
  hideSecrets(item: ApprovalItem): ApprovalItem {
    if (item.changes === null) return item;
    const shown: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(item.changes)) shown[name] = this.isSecret(item, name) ? SECRET_SET_TEXT : value;
    return { ...item, changes: shown };
  }

  /** Reads an edit form's `edit.*` `fields` for `item`: the changed fields checked against the tool's schema, or why not. */
  readEdits(item: ApprovalItem, fields: URLSearchParams): EditReading {
    const byName = new Map(this.fieldsFor(item).map((field) => [field.name, field]));
    const typed = new Map<string, string>();
    const errors = new Map<string, string>();
    const fresh: Record<string, unknown> = {};
    const refuse = (summary: string | null): EditReading => ({ ok: false, errors, summary, typed });
    for (const [key, text] of fields) {
      if (!key.startsWith('edit.')) continue;
      const name = key.slice('edit.'.length);
      const field = byName.get(name);
      if (field === undefined) return refuse(`The field '${name}' cannot be edited here; nothing was recorded.`);
      if (!field.secret) typed.set(name, text);
      const { value, present } = valueInEffect(item, name);
      const read = readTypedValue(field, text, value, present);
      if (read.kind === 'invalid') errors.set(name, read.message);
      else if (read.kind === 'value') fresh[name] = read.value;
    }
    const validator = this.#settings.validator!;
    for (const [name, value] of Object.entries(fresh)) {
      const field = byName.get(name)!;
      const single: JsonSchema = { type: 'object', properties: { [name]: field.schema } };
      const validation = validator.validate({ [name]: value }, single);
      if (validation.valid) continue;
      // A validator may quote the value it refused: never for a secret.
      const message = field.secret
        ? "The value does not suit the tool's schema for this field."
        : validation.errors.map((error) => error.replace(`${name}: `, '')).join('; ');
      errors.set(name, message);
    }
    if (errors.size > 0) return refuse(null);
    const changes = { ...(item.changes ?? {}), ...fresh };
    const problem = this.checkChanges(item, changes);
    return problem === null ? { ok: true, fresh, changes } : refuse(problem);
  }

  /** Null when `changes` suit `item`'s tool schema (the fields given; required ones are the runtime's to check), else why not. */
  checkChanges(item: ApprovalItem, changes: Readonly<Record<string, unknown>>): string | null {
    const schema = this.#schemaOf(item.tool);
    const validator = this.#settings.validator;
    if (schema === null || validator === undefined) return 'Edits are not available for this tool; nothing was recorded.';
    // Only the edited fields are checked here (the held arguments are redacted); the runtime
    // validates the complete arguments again before the call runs.
    const validation = validator.validate(changes, { ...schema, required: [] });
    if (validation.valid) return null;
    const hidden = [...Object.keys(changes)].filter((name) => this.isSecret(item, name));
    // A validator may quote the value it refused: a secret's message names only the field.
    const messages = validation.errors.map((error) =>
      hidden.some((name) => error.includes(name)) ? 'a secret field is not valid' : error,
    );
    return `The edit was refused: ${messages.join('; ')}. Nothing was recorded.`;
  }
}
