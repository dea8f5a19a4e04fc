/** The key/value pairs of an object or array payload, in order; none for anything else. */
export function readDataFields(data: unknown): readonly (readonly [key: string, value: unknown])[] {
  return typeof data === 'object' && data !== null ? Object.entries(data) : [];
}

/**
 * The fields of a generic result worth a line: a field whose value is null, undefined, `''`, `[]` or
 * `{}` says nothing and is left out, so a result reads as what happened rather than as a form with
 * blanks. (A detail result lists every field, because an entity's empty field is part of it.)
 */
export function readInformativeFields(data: unknown): readonly (readonly [key: string, value: unknown])[] {
  return readDataFields(data).filter(([, value]) => !isEmptyValue(value));
}

function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && Object.keys(value).length === 0;
}

/** A scalar payload worth showing (a number, a non-empty string, a boolean…), else null. */
export function readScalarData(data: unknown): string | number | boolean | bigint | null {
  if (typeof data === 'number' || typeof data === 'boolean' || typeof data === 'bigint') return data;
  if (typeof data === 'string' && data !== '') return data;
  return null;
}
