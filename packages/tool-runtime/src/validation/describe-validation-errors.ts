import { clipText } from '@milpa/core/kit';
import type { ErrorObject } from 'ajv';
import { jsonTypeName } from './json-type-name.js';
import type { ValidationIssue } from './validation-result.js';

// Keywords whose failure is explained by the parent alone; ajv also reports each failed branch, which
// would only confuse a reader ("must be string", "must be null", "must match a schema in anyOf").
const GROUPING_KEYWORDS: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'contains', 'propertyNames']);

interface Located {
  readonly error: ErrorObject;
  readonly path: string;
  readonly value: unknown;
  /** Sort key: a [category, index] pair per level (see rankOf). */
  readonly rank: readonly number[];
}

/** Splits a JSON Pointer (`/user/tags/0`) into unescaped segments. */
function decodePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function ownValue(container: unknown, key: string): unknown {
  if (typeof container !== 'object' || container === null) return undefined;
  return Object.hasOwn(container, key) ? (container as Record<string, unknown>)[key] : undefined;
}

/** Walks `root` along the pointer, naming array steps `[i]` and object steps `.key`. */
function locate(root: unknown, pointer: string): { path: string; value: unknown } {
  let path = '';
  let value = root;
  for (const segment of decodePointer(pointer)) {
    path = Array.isArray(value) ? `${path}[${segment}]` : childPath(path, segment);
    value = ownValue(value, segment);
  }
  return { path, value };
}

// A key or value a caller sent is quoted in messages and logs cut to a bounded length (its length noted).
const MAX_QUOTED_KEY = 100;
const MAX_QUOTED_VALUE = 200;

function childPath(parent: string, key: string): string {
  const shown = clipText(key, MAX_QUOTED_KEY);
  return parent === '' ? shown : `${parent}.${shown}`;
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return clipText(value, MAX_QUOTED_VALUE);
  try {
    return clipText(JSON.stringify(value) ?? String(value), MAX_QUOTED_VALUE);
  } catch {
    return clipText(String(value), MAX_QUOTED_VALUE);
  }
}

function joinAlternatives(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function typeList(params: Record<string, unknown>): string[] {
  const type = params['type'];
  return Array.isArray(type) ? type.map(String) : [String(type)];
}

function prefixed(path: string, message: string): string {
  return path === '' ? message : `${path}: ${message}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A group's message when every failed branch is a plain type or value check on the same value. */
function describeAlternatives(parent: ErrorObject, branches: readonly ErrorObject[], value: unknown): string | null {
  if (branches.length === 0 || branches.some((branch) => branch.instancePath !== parent.instancePath)) return null;
  if (branches.every((branch) => branch.keyword === 'type')) {
    const types = [...new Set(branches.flatMap((branch) => typeList(branch.params)))];
    return `Expected ${joinAlternatives(types)}, got ${jsonTypeName(value)}`;
  }
  if (branches.every((branch) => branch.keyword === 'const' || branch.keyword === 'enum')) {
    const values = branches.flatMap((branch) =>
      branch.keyword === 'const' ? [branch.params['allowedValue']] : (branch.params['allowedValues'] as unknown[]),
    );
    return `Value must be one of: ${values.map(formatValue).join(', ')}`;
  }
  return null;
}

/**
 * One ajv error as a {@link ValidationIssue}: plain wording at the top level (`Missing required field:
 * name`, `name: Expected string, got integer`), the field's path in front of nested ones.
 */
function describe(error: ErrorObject, path: string, value: unknown, branches: readonly ErrorObject[]): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const field = childPath(path, String(params['missingProperty']));
      return { path: field, message: `Missing required field: ${field}` };
    }
    case 'dependentRequired': {
      const field = childPath(path, String(params['missingProperty']));
      return {
        path: field,
        message: `Missing required field: ${field} (required when ${childPath(path, String(params['property']))} is present)`,
      };
    }
    case 'additionalProperties': {
      const field = childPath(path, String(params['additionalProperty']));
      return { path: field, message: `Unknown property: ${field}` };
    }
    case 'unevaluatedProperties': {
      const field = childPath(path, String(params['unevaluatedProperty']));
      return { path: field, message: `Unknown property: ${field}` };
    }
    case 'propertyNames': {
      const name = String(params['propertyName']);
      return { path: childPath(path, name), message: prefixed(path, `Invalid property name: ${name}`) };
    }
    default:
      return { path, message: prefixed(path, describeConstraint(error, params, value, branches)) };
  }
}

function describeConstraint(error: ErrorObject, params: Record<string, unknown>, value: unknown, branches: readonly ErrorObject[]): string {
  switch (error.keyword) {
    case 'type':
      return `Expected ${joinAlternatives(typeList(params))}, got ${jsonTypeName(value)}`;
    case 'enum':
      return `Value must be one of: ${(params['allowedValues'] as unknown[]).map(formatValue).join(', ')}`;
    case 'const':
      return `Value must be: ${formatValue(params['allowedValue'])}`;
    case 'minLength':
      return `String too short (min: ${String(params['limit'])})`;
    case 'maxLength':
      return `String too long (max: ${String(params['limit'])})`;
    case 'minimum':
      return `Value too small (min: ${String(params['limit'])})`;
    case 'maximum':
      return `Value too large (max: ${String(params['limit'])})`;
    case 'exclusiveMinimum':
      return `Value must be greater than ${String(params['limit'])}`;
    case 'exclusiveMaximum':
      return `Value must be less than ${String(params['limit'])}`;
    case 'multipleOf':
      return `Value must be a multiple of ${String(params['multipleOf'])}`;
    case 'pattern':
      return `String does not match pattern: ${String(params['pattern'])}`;
    case 'format':
      return `Invalid format (expected: ${String(params['format'])})`;
    case 'minItems':
      return `Too few items (min: ${String(params['limit'])})`;
    case 'maxItems':
    case 'items':
      return `Too many items (max: ${String(params['limit'])})`;
    case 'unevaluatedItems':
      return `Too many items (max: ${String(params['len'])})`;
    case 'uniqueItems':
      return `Items must be unique (items ${String(params['j'])} and ${String(params['i'])} are identical)`;
    case 'minProperties':
      return `Too few properties (min: ${String(params['limit'])})`;
    case 'maxProperties':
      return `Too many properties (max: ${String(params['limit'])})`;
    case 'contains':
      return params['maxContains'] === undefined
        ? `Array must contain at least ${String(params['minContains'] ?? 1)} matching item(s)`
        : `Array must contain at most ${String(params['maxContains'])} matching item(s)`;
    case 'not':
      return 'Value must not match the excluded schema';
    case 'false schema':
      return 'Value is not allowed';
    case 'oneOf':
      if (Array.isArray(params['passingSchemas'])) return 'Value matches more than one of the allowed schemas';
      return describeAlternatives(error, branches, value) ?? 'Value does not match any of the allowed schemas';
    case 'anyOf':
      return describeAlternatives(error, branches, value) ?? 'Value does not match any of the allowed schemas';
    default:
      return capitalize(error.message ?? `Failed ${error.keyword} check`);
  }
}

function isWithin(inner: ErrorObject, outer: ErrorObject): boolean {
  const path = outer.instancePath;
  return inner.schemaPath.startsWith(`${outer.schemaPath}/`) && (inner.instancePath === path || inner.instancePath.startsWith(`${path}/`));
}

function schemaAt(schema: unknown, key: string): unknown {
  return ownValue(schema, key);
}

function keyIndex(container: unknown, key: string): number {
  if (typeof container !== 'object' || container === null) return 0;
  const index = Object.keys(container).indexOf(key);
  return index === -1 ? 0 : index;
}

/** A property's report position inside its object: declared properties first, in `properties` order, then the rest in argument order. */
function propertyRank(schema: unknown, value: unknown, key: string): number {
  const properties = schemaAt(schema, 'properties');
  if (typeof properties === 'object' && properties !== null) {
    const declared = Object.keys(properties);
    const position = declared.indexOf(key);
    return position === -1 ? declared.length + keyIndex(value, key) : position;
  }
  return keyIndex(value, key);
}

/**
 * The sort key of an error, applied at every depth: inside each object, required fields (in
 * `required` order), then problems of its properties (in `properties` order), then unknown
 * properties (in argument order), then the object's other problems. A pair [category, index] per level.
 */
function rankOf(error: ErrorObject, rootSchema: unknown, args: unknown): number[] {
  const rank: number[] = [];
  let schema = rootSchema;
  let value = args;
  for (const segment of decodePointer(error.instancePath)) {
    if (Array.isArray(value)) {
      rank.push(1, Number(segment));
      const prefixItems = schemaAt(schema, 'prefixItems');
      schema =
        Array.isArray(prefixItems) && Number(segment) < prefixItems.length ? prefixItems[Number(segment)] : schemaAt(schema, 'items');
    } else {
      rank.push(1, propertyRank(schema, value, segment));
      schema = schemaAt(schemaAt(schema, 'properties'), segment);
    }
    value = ownValue(value, segment);
  }
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const required = schemaAt(schema, 'required');
      const position = Array.isArray(required) ? required.indexOf(params['missingProperty']) : -1;
      rank.push(0, position === -1 ? Number.MAX_SAFE_INTEGER : position);
      break;
    }
    case 'dependentRequired':
      rank.push(0, Number.MAX_SAFE_INTEGER);
      break;
    case 'additionalProperties':
    case 'unevaluatedProperties':
      rank.push(2, keyIndex(value, String(params['additionalProperty'] ?? params['unevaluatedProperty'])));
      break;
    default:
      rank.push(3, 0);
  }
  return rank;
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}

/**
 * Turns ajv's raw errors for `args` into readable issues in a stable report order: required
 * fields (in `required` order), then problems of declared properties (in `properties` order), then
 * unknown properties (in argument order) — at the top level and, the same way, inside nested objects.
 */
export function describeValidationErrors(
  errors: readonly ErrorObject[],
  args: Readonly<Record<string, unknown>>,
  schema: Readonly<Record<string, unknown>>,
): ValidationIssue[] {
  const parents = errors.filter((error) => GROUPING_KEYWORDS.has(error.keyword));
  const branches = new Map<ErrorObject, ErrorObject[]>();
  const enclosing = (error: ErrorObject): ErrorObject | undefined => parents.find((parent) => parent !== error && isWithin(error, parent));

  const kept: ErrorObject[] = [];
  for (const error of errors) {
    const parent = enclosing(error);
    if (parent !== undefined) {
      const group = branches.get(parent) ?? [];
      group.push(error);
      branches.set(parent, group);
    } else if (error.keyword !== 'if') {
      // An `if` failure only says "must match then"; the failing `then` errors themselves are kept.
      kept.push(error);
    }
  }

  const located: Located[] = kept.map((error) => {
    const { path, value } = locate(args, error.instancePath);
    return { error, path, value, rank: rankOf(error, schema, args) };
  });
  // Array.prototype.sort is stable: equal ranks keep ajv's order.
  located.sort((a, b) => compareRanks(a.rank, b.rank));

  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const { error, path, value } of located) {
    const issue = describe(error, path, value, branches.get(error) ?? []);
    // Two schema branches (e.g. `allOf`) can report the same problem twice; say it once.
    if (seen.has(issue.message)) continue;
    seen.add(issue.message);
    issues.push(issue);
  }
  return issues;
}
