import type { ClampRule, JsonSchema } from '@milpa/core';
import { isUnclampableField } from '../tidying/protected-field.js';

/** The clamps a tool's calls get, and the declared ones left out. */
export interface ApplicableClamps {
  /** The clamps applied before validation; null when none remain. */
  readonly clamps: Readonly<Record<string, ClampRule>> | null;
  /** The fields whose declared clamp is never applied: identifiers and protected fields. */
  readonly skipped: readonly string[];
}

/**
 * The tool's clamps without those on identifier fields (by name, see `isIdentifierField`) or on
 * properties marked `'x-milpa-protected': true`: a clamp moves a value to a bound, and an
 * identifier moved to a bound names another record. Such a field's value is validated as sent.
 */
export function applicableClamps(clamps: Readonly<Record<string, ClampRule>>, schema: JsonSchema): ApplicableClamps {
  const kept: Record<string, ClampRule> = {};
  const skipped: string[] = [];
  for (const [field, rule] of Object.entries(clamps)) {
    if (isUnclampableField(schema, field)) skipped.push(field);
    // defineProperty, not assignment: a field named `__proto__` must stay a plain data field.
    else Object.defineProperty(kept, field, { value: rule, writable: true, enumerable: true, configurable: true });
  }
  return {
    clamps: Object.keys(kept).length > 0 ? Object.freeze(kept) : null,
    skipped: Object.freeze(skipped),
  };
}
