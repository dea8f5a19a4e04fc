import type { JsonSchema } from '@milpa/core';
import type { ApprovalItem } from '../console/approval-item.js';
import type { ConsoleSchemaValidator, ConsoleToolCatalog } from '../console/approval-console-options.js';
import { editableFieldsOf, formatFieldValue, readFieldValue, type EditableField } from './editable-fields.js';

/** What the runtime puts in place of a secret argument (or a secret inside a value) before anyone sees it. */
const REDACTED_PLACEHOLDER = '***REDACTED***';

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

/** The changes a grant form asks for, or why they are refused; `typed` keeps what the approver typed. */
export type ApprovalChanges =
  | {
      /** The edits are acceptable. */
      readonly ok: true;
      /** The held call's changes after this grant (earlier grants' merged in), or null for none. */
      readonly changes: Record<string, unknown> | null;
      /** What the approver typed, by field name. */
      readonly typed: Map<string, string>;
    }
  | {
      /** The edits are refused; nothing may be recorded. */
      readonly ok: false;
      /** What the approver is told. */
      readonly message: string;
      /** What the approver typed, by field name, shown again. */
      readonly typed: Map<string, string>;
    };

/** Where {@link ApprovalEdits} learns which fields may be edited and how they are checked. */
export interface ApprovalEditsSettings {
  /** Tool schemas; without them nothing is editable. */
  readonly tools: ConsoleToolCatalog | undefined;
  /** Checks edited fields; without it nothing is editable. */
  readonly validator: ConsoleSchemaValidator | undefined;
  /** The host's choice of editable fields per tool (null: none). */
  readonly editableFields: ((tool: string) => readonly string[] | null) | undefined;
}

/**
 * The edits an approver may make to a held call's arguments before granting it: which declared
 * fields are offered (never a redacted one), and reading a grant form's `edit.*` fields into
 * changes checked against the tool's schema on the server.
 */
export class ApprovalEdits {
  readonly #settings: ApprovalEditsSettings;

  /** Edits as `settings` allow them. */
  constructor(settings: ApprovalEditsSettings) {
    this.#settings = settings;
  }

  /** The fields of `item` the approver may replace (empty when edits are off for its tool). */
  fieldsFor(item: ApprovalItem): readonly EditableField[] {
    const { tools, validator, editableFields } = this.#settings;
    if (tools === undefined || validator === undefined) return [];
    const definition = tools.getDefinition(item.tool);
    if (definition === null || definition === undefined) return [];
    const only = editableFields === undefined ? null : editableFields(item.tool);
    if (editableFields !== undefined && only === null) return [];
    // A field the runtime redacted (its name looks secret, or its value held a secret) is never
    // shown as held, so never edited either: an edit would start from the redacted text.
    return editableFieldsOf(definition.inputSchema, only).filter((field) => !holdsRedaction(item.arguments[field.name]));
  }

  /** The changes a grant form's `fields` ask for, or a message saying why they are refused. */
  readChanges(item: ApprovalItem, fields: URLSearchParams): ApprovalChanges {
    const byName = new Map(this.fieldsFor(item).map((field) => [field.name, field]));
    const typed = new Map<string, string>();
    const fresh: Record<string, unknown> = {};
    for (const [key, value] of fields) {
      if (!key.startsWith('edit.')) continue;
      const name = key.slice('edit.'.length);
      const field = byName.get(name);
      if (field === undefined) return { ok: false, message: `The field '${name}' cannot be edited here; nothing was recorded.`, typed };
      typed.set(name, value);
      const current = Object.hasOwn(item.changes ?? {}, name) ? item.changes?.[name] : item.arguments[name];
      if (value !== formatFieldValue(current)) fresh[name] = readFieldValue(field, value);
    }
    if (Object.keys(fresh).length === 0) return { ok: true, changes: null, typed };
    const changes = { ...(item.changes ?? {}), ...fresh };
    const definition = this.#settings.tools?.getDefinition(item.tool);
    const validator = this.#settings.validator;
    if (definition === null || definition === undefined || validator === undefined) {
      return { ok: false, message: 'Edits are not available for this tool; nothing was recorded.', typed };
    }
    // Only the edited fields are checked here (the held arguments are redacted); the runtime
    // validates the complete arguments again before the call runs.
    const partial: JsonSchema = { ...definition.inputSchema, required: [] };
    const validation = validator.validate(changes, partial);
    if (!validation.valid)
      return { ok: false, message: `The edit was refused: ${validation.errors.join('; ')}. Nothing was recorded.`, typed };
    return { ok: true, changes, typed };
  }
}
