import { MilpaError } from '@milpa/core';
import { deepFreeze } from '@milpa/core/kit';

/** Why `value` is not plain JSON data (the path of the first offending part), or null when it is. */
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
 * `value` as JSON text for a `text` column, kept exactly as written (a `jsonb` column would reorder
 * keys). Only plain JSON data is accepted, so what a store reads back is what it was given:
 * functions, symbols, bigints, `undefined`, non-finite numbers, dates and class instances are
 * refused rather than silently dropped or changed.
 *
 * @throws MilpaError `INVALID_ARGUMENT` naming `what` and the offending path.
 */
export function toJsonColumn(value: unknown, what: string): string {
  const problem = nonJsonPart(value, '$', []);
  if (problem !== null) throw new MilpaError(`${what} must be plain JSON data: ${problem}.`, { code: 'INVALID_ARGUMENT' });
  return JSON.stringify(value);
}

/** Parses a JSON column and freezes the result deeply; undefined when the column does not hold JSON text. */
export function fromJsonColumn(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return deepFreeze(JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
