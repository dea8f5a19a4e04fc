/**
 * An epoch-milliseconds column as a number, or undefined when it holds something else. PostgreSQL
 * `bigint` arrives as a decimal string from the `pg` client by default (as a number or a bigint
 * when the pool was configured to parse it), so every form is read.
 */
export function timeOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && /^-?\d{1,16}$/.test(value)) return Number(value);
  return undefined;
}

/** True for a column that holds text or SQL NULL. */
export function isTextOrNull(value: unknown): value is string | null {
  return value === null || typeof value === 'string';
}
