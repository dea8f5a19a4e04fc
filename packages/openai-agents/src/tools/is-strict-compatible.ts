import { isRecord } from '@milpa/core/kit';
import type { JsonSchema } from '@milpa/core';

/** Keywords that make an object accept properties it does not list: strict mode would forbid them. */
const OPEN_OBJECT_KEYWORDS = ['patternProperties', 'propertyNames', 'unevaluatedProperties', 'dependentSchemas'] as const;
const NESTED_LISTS = ['anyOf', 'allOf', 'oneOf', 'prefixItems'] as const;

function isClosable(schema: unknown, depth: number): boolean {
  if (typeof schema === 'boolean') return schema;
  if (!isRecord(schema) || depth > 64) return false;
  if (OPEN_OBJECT_KEYWORDS.some((keyword) => keyword in schema)) return false;
  const objectLike = schema['type'] === 'object' || 'properties' in schema || 'additionalProperties' in schema;
  if (objectLike) {
    // Strict mode closes every object; only one that is closed already, or lists what it accepts
    // and says nothing of the rest, means the same afterwards.
    if (schema['additionalProperties'] !== undefined && schema['additionalProperties'] !== false) return false;
    if (!isRecord(schema['properties'])) return false;
    if (!Object.values(schema['properties']).every((property) => isClosable(property, depth + 1))) return false;
  }
  for (const key of NESTED_LISTS) {
    const nested = schema[key];
    if (nested !== undefined && (!Array.isArray(nested) || !nested.every((entry) => isClosable(entry, depth + 1)))) return false;
  }
  for (const key of ['$defs', 'definitions'] as const) {
    const nested = schema[key];
    if (nested !== undefined && (!isRecord(nested) || !Object.values(nested).every((entry) => isClosable(entry, depth + 1)))) return false;
  }
  const items = schema['items'];
  if (items !== undefined && !isClosable(items, depth + 1)) return false;
  return true;
}

/**
 * True when a tool's input schema means the same in the OpenAI strict mode: an object at the root
 * whose objects, at every depth, list their properties and accept no others (or say nothing of
 * others). A schema with open objects (`additionalProperties` other than `false`,
 * `patternProperties` …) is sent non-strict instead, as it is.
 */
export function isStrictCompatible(schema: JsonSchema): boolean {
  return isRecord(schema) && schema['type'] === 'object' && isClosable(schema, 0);
}
