import { isRecord } from '@milpa/core/kit';
import type { JsonSchema } from '@milpa/core';
import { isIdentifierField } from './identifier-field.js';

/** The schema keyword that marks a property to be taken exactly as sent: never tidied, never clamped. */
export const PROTECTED_KEYWORD = 'x-milpa-protected';

/**
 * True when the tool's input schema marks the top-level property `field` with
 * `'x-milpa-protected': true`: argument tidying leaves it exactly as sent (a `'*'`, `'%'`, `'all'`,
 * blank or null value is kept, a numeric string is not converted, a number is not moved to a bound)
 * and no clamp applies, so validation judges the value the caller sent and refuses a bad one. Mark
 * filters whose absence would mean "everything" this way, and identifiers whose names
 * {@link isIdentifierField} does not recognise.
 */
export function isProtectedField(schema: JsonSchema, field: string): boolean {
  const properties = schema['properties'];
  if (!isRecord(properties) || !Object.hasOwn(properties, field)) return false;
  const property = properties[field];
  return isRecord(property) && property[PROTECTED_KEYWORD] === true;
}

/**
 * True when no clamp and no bound may change the argument `field`: it is marked protected
 * ({@link isProtectedField}) or its name says it is an identifier ({@link isIdentifierField}).
 */
export function isUnclampableField(schema: JsonSchema, field: string): boolean {
  return isIdentifierField(field) || isProtectedField(schema, field);
}
