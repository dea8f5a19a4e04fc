// The small value tests of the redactor's copy and collection walks.
import { isObject } from './schema-secrets.js';

/** A plain object (`{…}` or `Object.create(null)`): the usual shape of a call's arguments. */
// Stryker disable next-line BlockStatement: equivalent: answering false (here undefined) only sends the value down the full walk, which
// gives the same copy and the same secrets.
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (!isObject(value) || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  // Stryker disable next-line LogicalOperator: equivalent: `&&` is never true, which only sends every value down the full walk, with the
  // same result.
  return prototype === Object.prototype || prototype === null;
}

/** A value the copy keeps as it is and JSON writes without looking inside. */
export function isFlatValue(value: unknown): boolean {
  return value === null || value === undefined || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Marks "not flat": the caller takes the full walk instead. */
export const NOT_FLAT: unique symbol = Symbol('not flat');

/** Sets `key` on `target` as an own data field, `__proto__` included. */
export function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  // A `__proto__` key from JSON.parse must stay an ordinary field, never reach the prototype.
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}
