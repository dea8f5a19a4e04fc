import { isRecord } from '@milpa/core/kit';

function fieldOf(data: unknown, key: string): unknown {
  return isRecord(data) ? data[key] : undefined;
}

/**
 * The number under `key` of a result's data, or null when the data is not an object or the field is not a number.
 *
 * @example
 * numberField({ next_offset: 50 }, 'next_offset'); // 50
 */
export function numberField(data: unknown, key: string): number | null {
  const value = fieldOf(data, key);
  return typeof value === 'number' ? value : null;
}

/** The boolean under `key` of a result's data, or null. */
export function booleanField(data: unknown, key: string): boolean | null {
  const value = fieldOf(data, key);
  return typeof value === 'boolean' ? value : null;
}

/** The string under `key` of a result's data, or null. */
export function stringField(data: unknown, key: string): string | null {
  const value = fieldOf(data, key);
  return typeof value === 'string' ? value : null;
}
