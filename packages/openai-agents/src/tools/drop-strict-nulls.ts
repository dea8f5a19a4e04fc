import { isRecord } from '@milpa/core/kit';
/** True when `schema` lets `null` through: a `null` type, a null constant or enum entry, or a branch that does. */
function acceptsNull(schema: unknown): boolean {
  if (schema === true) return true;
  if (!isRecord(schema)) return false;
  const type = schema['type'];
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (schema['const'] === null || (Array.isArray(schema['enum']) && schema['enum'].includes(null))) return true;
  return ['anyOf', 'oneOf'].some((key) => Array.isArray(schema[key]) && (schema[key] as unknown[]).some(acceptsNull));
}

/**
 * The arguments of a strict-mode call as its tool reads them: strict mode makes every optional
 * field required and nullable, so a `null` in an optional field whose own schema refuses `null`
 * means "left out" and is dropped, at every depth. The SDK does the same before a tool runs; the
 * adapter does it too where the SDK hands over the raw arguments (its approval question), so the
 * arguments a person approves are the ones that run.
 */
export function dropStrictNulls(schema: unknown, value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = isRecord(schema) ? schema['items'] : undefined;
    return isRecord(items) ? value.map((entry) => dropStrictNulls(items, entry)) : value;
  }
  if (!isRecord(value) || !isRecord(schema) || !isRecord(schema['properties'])) return value;
  const properties = schema['properties'];
  const required = Array.isArray(schema['required']) ? schema['required'] : [];
  const kept: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    const declared = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (declared === undefined) {
      kept[key] = entry;
    } else if (entry !== null || required.includes(key) || acceptsNull(declared)) {
      kept[key] = dropStrictNulls(declared, entry);
    }
  }
  return kept;
}
