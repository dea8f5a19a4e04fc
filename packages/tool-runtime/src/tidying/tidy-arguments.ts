import type { JsonSchema, TidyAction } from '@milpa/core';
import { isIdentifierField } from './identifier-field.js';
import { PROTECTED_KEYWORD } from './protected-field.js';

/** One change argument tidying made, as listed in `meta.tidied`: the field and what was done (never its value). */
export interface TidiedField {
  /** The argument's name. */
  readonly field: string;
  /**
   * `dropped`: an optional argument sent as null, a blank string, `*` or `%`; `bounded`: a number
   * outside the schema's `minimum` / `maximum`, set to that bound; `converted`: a numeric string
   * for an integer or number property, made a number. Protected and identifier fields are never
   * dropped or bounded.
   */
  readonly action: TidyAction;
}

/** The tidied arguments and what changed; `changes` is empty (and `args` the input) when nothing did. */
export interface TidyOutcome {
  readonly args: Readonly<Record<string, unknown>>;
  readonly changes: readonly TidiedField[];
}

const NO_CHANGES: readonly TidiedField[] = Object.freeze([]);
const WILDCARDS: ReadonlySet<string> = new Set(['*', '%']);
const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function typesOf(schema: Record<string, unknown>): readonly string[] {
  const type = schema['type'];
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((entry): entry is string => typeof entry === 'string') : [];
}

function isEmptyish(value: unknown): boolean {
  if (value === null) return true;
  if (typeof value !== 'string') return false;
  return value.trim() === '' || WILDCARDS.has(value);
}

function enumHolds(schema: Record<string, unknown>, value: unknown): boolean {
  const values = schema['enum'];
  if (Array.isArray(values) && values.includes(value)) return true;
  return Object.hasOwn(schema, 'const') && schema['const'] === value;
}

/** A numeric string as the number the property's type wants, or undefined when it is not one. */
function numberFrom(value: string, types: readonly string[]): number | undefined {
  const text = value.trim();
  if (types.includes('integer') && INTEGER.test(text)) {
    const parsed = Number(text);
    return Number.isSafeInteger(parsed) ? parsed : undefined;
  }
  if (types.includes('number') && NUMBER.test(text)) {
    const parsed = Number(text);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

function bounded(value: number, schema: Record<string, unknown>): number {
  const minimum = schema['minimum'];
  const maximum = schema['maximum'];
  if (typeof minimum === 'number' && value < minimum) return minimum;
  if (typeof maximum === 'number' && value > maximum) return maximum;
  return value;
}

/**
 * Cleans the arguments a model sent against the tool's input schema, before clamps and validation:
 *
 * - marked `'x-milpa-protected': true` in its property schema: passed through exactly as sent (validation judges it);
 * - an identifier by its name (`id`, `user_id`, `noteIds`, … see `isIdentifierField`): never dropped, never moved to a bound; a
 *   numeric string is converted;
 * - optional, sent as `null`, a blank string, `*` or `%`: dropped, so the tool sees it as absent — unless the value is one of the
 *   property's `enum` values;
 * - required: passed through as sent, even when `null`; a numeric string is converted, never moved to a bound;
 * - a numeric string for an `integer` or `number` property: converted to a number;
 * - an optional integer or number outside the property's `minimum` / `maximum`: set to that bound;
 * - not in the schema's `properties`: passed through (validation judges it).
 *
 * Tidying never widens a call: a value that would select everything once dropped, or another
 * record once bounded, belongs in a protected or identifier field, which it leaves alone.
 * The caller's object is never changed; a new one is returned when anything changed.
 */
export function tidyArguments(args: Readonly<Record<string, unknown>>, schema: JsonSchema): TidyOutcome {
  const properties = schema['properties'];
  if (typeof properties !== 'object' || properties === null) return { args, changes: NO_CHANGES };
  const required = Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : [];
  let tidied: Record<string, unknown> | null = null;
  const changes: TidiedField[] = [];
  for (const field of Object.keys(args)) {
    if (!Object.hasOwn(properties, field)) continue;
    const property = (properties as Record<string, unknown>)[field];
    if (typeof property !== 'object' || property === null) continue;
    const propertySchema = property as Record<string, unknown>;
    // A protected argument is taken exactly as sent: validation judges it, and refuses a bad one.
    if (propertySchema[PROTECTED_KEYWORD] === true) continue;
    const value = args[field];
    const isRequired = required.includes(field);
    // Dropping an identifier (or moving it to a bound) would act on all records, or on another one.
    const identifier = isIdentifierField(field);
    if (isRequired) {
      // A required argument passes through as sent, even null.
      if (value === null) continue;
    } else if (!identifier && isEmptyish(value) && !enumHolds(propertySchema, value)) {
      tidied ??= { ...args };
      delete tidied[field];
      changes.push({ field, action: 'dropped' });
      continue;
    }
    const types = typesOf(propertySchema);
    if (!types.includes('integer') && !types.includes('number')) continue;
    let number = typeof value === 'number' ? value : undefined;
    if (typeof value === 'string' && !types.includes('string')) {
      number = numberFrom(value, types);
      if (number !== undefined) {
        tidied ??= { ...args };
        tidied[field] = number;
        changes.push({ field, action: 'converted' });
      }
    }
    // A required number is never moved to a bound: it is often an identifier, and `id: 0` turned
    // into `id: 1` would act on another record. Validation refuses it instead.
    if (isRequired || identifier || number === undefined || !Number.isFinite(number)) continue;
    const inBounds = bounded(number, propertySchema);
    if (inBounds !== number) {
      tidied ??= { ...args };
      tidied[field] = inBounds;
      changes.push({ field, action: 'bounded' });
    }
  }
  return tidied === null
    ? { args, changes: NO_CHANGES }
    : { args: tidied, changes: Object.freeze(changes.map((change) => Object.freeze(change))) };
}
