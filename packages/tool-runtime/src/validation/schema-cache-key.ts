import { configure } from 'safe-stable-stringify';
import { InvalidSchemaError } from './invalid-schema-error.js';

// Strict: a value JSON cannot represent (a function, NaN, Infinity, a bigint, a symbol) throws
// instead of being dropped or written as null, so it can never make two different schemas look
// alike. A cycle throws too, and is then located for the error message.
const SORTED = configure({ deterministic: true, strict: true, circularValue: Error });
const ORDERED = configure({ deterministic: false, strict: true, circularValue: Error });

/** Thrown by {@link refuseNonData} to stop the text of a schema that is not plain JSON data. */
const NOT_PLAIN_DATA = new Error('not plain JSON data');

/**
 * Refuses what JSON text would blur: an array hole or `undefined` item (written as `null`, which
 * ajv treats differently), and an object with a `toJSON` method or a class of its own (a `Date` as
 * `const` would read like a string). `undefined` object values pass: JSON leaves them out and ajv
 * ignores them alike.
 */
function refuseNonData(this: unknown, key: string, value: unknown): unknown {
  if (value === undefined && Array.isArray(this)) throw NOT_PLAIN_DATA;
  // The holder (for the root, a wrapper object under the key '') still has the value as it was
  // before any toJSON ran.
  const original = (this as Record<string, unknown>)[key];
  if (typeof original === 'object' && original !== null && !Array.isArray(original)) {
    const prototype: unknown = Object.getPrototypeOf(original);
    if (prototype !== Object.prototype && prototype !== null) throw NOT_PLAIN_DATA;
  }
  return value;
}

/** The JSON Pointer-like path (`#/properties/items/0`) at which `schema` first contains itself, or null. */
function findCycle(value: unknown, ancestors: Set<object>, path: (string | number)[]): string | null {
  if (typeof value !== 'object' || value === null) return null;
  if (ancestors.has(value)) return path.length === 0 ? '#' : `#/${path.join('/')}`;
  ancestors.add(value);
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_item, index) => index) : Object.keys(value);
  for (const key of keys) {
    path.push(key);
    const found = findCycle((value as Record<string | number, unknown>)[key], ancestors, path);
    path.pop();
    if (found !== null) return found;
  }
  ancestors.delete(value);
  return null;
}

/**
 * The canonical JSON text of a schema, the key under which its compiled validator is cached. With
 * `sortKeys` (the default) key order does not matter, so structurally identical schemas written in
 * a different order share one compiled ajv function; without it the text also pins key order,
 * which decides the order errors are reported in. The text comes from `safe-stable-stringify`.
 *
 * Returns null for a schema that is not plain JSON data (a function, `NaN`, an array hole, a `Date`
 * or other class instance anywhere in it): such a schema gets no structural key and is compiled on
 * its own rather than risk sharing a validator with a schema that only looks the same as JSON.
 *
 * @throws InvalidSchemaError when the schema object contains itself, naming where.
 */
export function schemaCacheKey(schema: unknown, sortKeys = true): string | null {
  try {
    return (sortKeys ? SORTED : ORDERED)(schema, refuseNonData) ?? null;
  } catch (error) {
    // A throwing getter throws here again, as it would in ajv.
    const at = findCycle(schema, new Set(), []);
    if (at !== null) {
      throw new InvalidSchemaError(`Invalid input schema at ${at}: the schema object is cyclic (use $ref instead).`, {
        schemaPath: at,
        cause: error,
      });
    }
    return null;
  }
}
