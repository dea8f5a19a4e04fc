import { InvalidSchemaError } from './invalid-schema-error.js';

/** Appends the canonical text of one schema node; `path` holds the keys from the root, for the cycle error. */
function write(value: unknown, parts: string[], ancestors: Set<object>, path: (string | number)[], sortKeys: boolean): void {
  if (typeof value !== 'object' || value === null) {
    // JSON.stringify gives undefined for functions and undefined; keep them distinct from null.
    parts.push(JSON.stringify(value) ?? `<${typeof value}>`);
    return;
  }
  if (ancestors.has(value)) {
    // The path is only built here: building it for every node made keying thousands of schemas slow.
    const at = path.length === 0 ? '#' : `#/${path.join('/')}`;
    throw new InvalidSchemaError(`Invalid input schema at ${at}: the schema object is cyclic (use $ref instead).`, {
      schemaPath: at,
    });
  }
  ancestors.add(value);
  if (Array.isArray(value)) {
    parts.push('[');
    for (let index = 0; index < value.length; index++) {
      if (index > 0) parts.push(',');
      // A hole stays empty, as Array.prototype.map and join render it.
      if (!(index in value)) continue;
      path.push(index);
      write(value[index], parts, ancestors, path, sortKeys);
      path.pop();
    }
    parts.push(']');
  } else {
    const record = value as Record<string, unknown>;
    const keys = sortKeys ? Object.keys(record).sort() : Object.keys(record);
    parts.push('{');
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index]!;
      if (index > 0) parts.push(',');
      parts.push(JSON.stringify(key), ':');
      path.push(key);
      write(record[key], parts, ancestors, path, sortKeys);
      path.pop();
    }
    parts.push('}');
  }
  ancestors.delete(value);
}

/**
 * A canonical text for a schema. With `sortKeys` (the default) key order does not matter, so
 * structurally identical schemas written in a different order share one compiled ajv function;
 * without it the text also pins key order, which decides the order errors are reported in.
 *
 * @throws InvalidSchemaError when the schema object contains itself.
 */
export function schemaCacheKey(schema: unknown, sortKeys = true): string {
  const parts: string[] = [];
  write(schema, parts, new Set(), [], sortKeys);
  return parts.join('');
}
