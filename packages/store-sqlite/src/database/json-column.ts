import { MilpaError } from '@milpa/core';
import { deepFreeze } from '@milpa/core/kit';

/**
 * Writes `value` as JSON for a column. Only plain JSON data is accepted, so what a store reads back
 * is exactly what it was given: functions, symbols, bigints, `undefined` values and non-finite
 * numbers are refused rather than silently dropped or changed.
 *
 * @throws MilpaError `INVALID_ARGUMENT` naming `what` and the offending path.
 */
export function toJsonColumn(value: unknown, what: string): string {
  const problem = findNonJson(value, '$', new Set());
  if (problem !== null) throw new MilpaError(`${what} must be plain JSON data: ${problem}.`, { code: 'INVALID_ARGUMENT' });
  return JSON.stringify(value);
}

function findNonJson(value: unknown, path: string, seen: Set<object>): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${path} is ${String(value)}`;
  if (typeof value !== 'object') return `${path} is a ${typeof value}`;
  if (seen.has(value)) return `${path} refers back to itself`;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return `${path} is not a plain object or array`;
  seen.add(value);
  const entries = Array.isArray(value)
    ? value.map((item, index) => [`${path}[${String(index)}]`, item] as const)
    : Object.entries(value).map(([key, item]) => [`${path}.${key}`, item] as const);
  for (const [childPath, item] of entries) {
    const problem = findNonJson(item, childPath, seen);
    if (problem !== null) return problem;
  }
  seen.delete(value);
  return null;
}

/** Parses a JSON column and freezes the result deeply; undefined when the text is not JSON. */
export function fromJsonColumn(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return deepFreeze(JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
