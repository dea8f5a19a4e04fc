/** The key/value pairs of an object or array payload, in order; none for anything else. */
export function readDataFields(data: unknown): readonly (readonly [key: string, value: unknown])[] {
  return typeof data === 'object' && data !== null ? Object.entries(data) : [];
}

/** A scalar payload worth showing (a number, a non-empty string, a boolean…), else null. */
export function readScalarData(data: unknown): string | number | boolean | bigint | null {
  if (typeof data === 'number' || typeof data === 'boolean' || typeof data === 'bigint') return data;
  if (typeof data === 'string' && data !== '') return data;
  return null;
}
