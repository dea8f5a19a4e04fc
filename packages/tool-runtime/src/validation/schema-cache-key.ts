import { InvalidSchemaError } from './invalid-schema-error.js';

function write(value: unknown, ancestors: Set<object>, path: string, sortKeys: boolean): string {
  if (typeof value !== 'object' || value === null) {
    // JSON.stringify gives undefined for functions and undefined; keep them distinct from null.
    return JSON.stringify(value) ?? `<${typeof value}>`;
  }
  if (ancestors.has(value)) {
    throw new InvalidSchemaError(`Invalid input schema at ${path}: the schema object is cyclic (use $ref instead).`, {
      schemaPath: path,
    });
  }
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((item, index) => write(item, ancestors, `${path}/${index}`, sortKeys)).join(',')}]`;
  } else {
    const record = value as Record<string, unknown>;
    const keys = sortKeys ? Object.keys(record).sort() : Object.keys(record);
    text = `{${keys.map((key) => `${JSON.stringify(key)}:${write(record[key], ancestors, `${path}/${key}`, sortKeys)}`).join(',')}}`;
  }
  ancestors.delete(value);
  return text;
}

/**
 * A canonical text for a schema. With `sortKeys` (the default) key order does not matter, so
 * structurally identical schemas written in a different order share one compiled ajv function;
 * without it the text also pins key order, which decides the order errors are reported in.
 *
 * @throws InvalidSchemaError when the schema object contains itself.
 */
export function schemaCacheKey(schema: unknown, sortKeys = true): string {
  return write(schema, new Set(), '#', sortKeys);
}
