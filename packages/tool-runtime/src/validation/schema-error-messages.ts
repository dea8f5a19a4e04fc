import type { JsonSchema } from '@milpa/core';
import type { ErrorObject } from 'ajv';
import { InvalidSchemaError } from './invalid-schema-error.js';

// How a schema ajv refuses is explained to the host: which keyword, format or path is wrong.

/** The JSON Pointer of the first schema object that has `keyword` as an own key. */
function findKeyword(node: unknown, keyword: string, path: string, seen: Set<object>): string | null {
  if (typeof node !== 'object' || node === null || seen.has(node)) return null;
  seen.add(node);
  if (!Array.isArray(node) && Object.hasOwn(node, keyword)) return path;
  for (const [key, child] of Object.entries(node)) {
    const found = findKeyword(child, keyword, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, seen);
    if (found !== null) return found;
  }
  return null;
}

/** One readable message (and the first failing path) from ajv's meta-schema errors. */
export function describeMetaSchemaErrors(errors: readonly ErrorObject[]): { message: string; path: string } {
  const byPath = new Map<string, string>();
  for (const error of errors) {
    if (byPath.has(error.instancePath)) continue;
    const allowed = (error.params as Record<string, unknown>)['allowedValues'];
    const detail = Array.isArray(allowed) ? `: ${allowed.map(String).join(', ')}` : '';
    byPath.set(error.instancePath, `${error.message ?? 'is invalid'}${detail}`);
  }
  const entries = [...byPath].map(([path, message]) => `at #${path}: ${message}`);
  return { message: entries.join('; '), path: `#${[...byPath.keys()][0] ?? ''}` };
}

/** An `InvalidSchemaError` naming the path of an unknown keyword or format, from ajv's compile error. */
export function toInvalidSchemaError(error: unknown, schema: JsonSchema): InvalidSchemaError {
  const text = error instanceof Error ? error.message : String(error);
  const unknownKeyword = /unknown keyword: "([^"]*)"/.exec(text);
  if (unknownKeyword !== null) {
    const keyword = unknownKeyword[1] ?? '';
    const path = findKeyword(schema, keyword, '#', new Set()) ?? '#';
    return new InvalidSchemaError(
      `Invalid input schema at ${path}: unknown keyword "${keyword}". Check the spelling; custom annotations need an "x-" prefix.`,
      { schemaPath: path, cause: error },
    );
  }
  const unknownFormat = /unknown format "([^"]*)" ignored in schema at path "([^"]*)"/.exec(text);
  if (unknownFormat !== null) {
    const path = unknownFormat[2] ?? '#';
    return new InvalidSchemaError(`Invalid input schema at ${path}: unknown format "${unknownFormat[1] ?? ''}".`, {
      schemaPath: path,
      cause: error,
    });
  }
  return new InvalidSchemaError(`Invalid input schema: ${text}`, { cause: error });
}
