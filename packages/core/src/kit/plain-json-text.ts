import { MilpaError } from '../errors/milpa-error.js';
import { deepFreeze } from './deep-freeze.js';

/** Where `value` stops being plain JSON data (the path of the first offending part), or null when it is. */
function nonJsonPart(value: unknown, path: string, ancestors: readonly object[]): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${path} is ${String(value)}`;
  if (typeof value !== 'object') return `${path} is a ${typeof value}`;
  if (ancestors.includes(value)) return `${path} refers back to itself`;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return `${path} is not a plain object or array`;
  const inner = [...ancestors, value];
  const parts: [string, unknown][] = Array.isArray(value)
    ? value.map((item: unknown, index) => [`${path}[${String(index)}]`, item])
    : Object.entries(value).map(([key, item]) => [`${path}.${key}`, item]);
  for (const [partPath, item] of parts) {
    const problem = nonJsonPart(item, partPath, inner);
    if (problem !== null) return problem;
  }
  return null;
}

/**
 * `value` as JSON text for a durable store. Only plain JSON data is accepted, so what the store
 * reads back is exactly what it was given: functions, symbols, bigints, `undefined` values,
 * non-finite numbers, dates, class instances and cycles are refused rather than silently dropped
 * or changed.
 *
 * @throws MilpaError `INVALID_ARGUMENT` naming `what` and the offending path, e.g.
 *   `Confirmation args must be plain JSON data: $.when is not a plain object or array.`
 * @example
 * const text = toPlainJsonText(args, 'Confirmation args');
 */
export function toPlainJsonText(value: unknown, what: string): string {
  const problem = nonJsonPart(value, '$', []);
  if (problem !== null) throw new MilpaError(`${what} must be plain JSON data: ${problem}.`, { code: 'INVALID_ARGUMENT' });
  return JSON.stringify(value);
}

/**
 * Parses JSON text a store read back and freezes the result deeply; undefined when `text` is not a
 * string holding JSON (a store reports that as malformed data, never guessing).
 *
 * @example
 * const args = fromPlainJsonText(row.args_json);
 */
export function fromPlainJsonText(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return deepFreeze(JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
