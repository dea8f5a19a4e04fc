import type { ToolArgs } from '@milpa/core';

function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** Sets `key` as an own data property, so a `__proto__` key stays data and never swaps the prototype. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function emptyLike(source: object): Record<string, unknown> | unknown[] {
  if (Array.isArray(source)) return [];
  return Object.getPrototypeOf(source) === null ? (Object.create(null) as Record<string, unknown>) : {};
}

/**
 * Copies a nested graph without recursion (arguments nested tens of thousands of levels deep must
 * not overflow the stack): each container is copied once (shared values stay shared, cycles stay
 * cycles), then every copy is frozen, innermost first.
 */
function copyGraph(root: object): unknown {
  const copies = new Map<object, Record<string, unknown> | unknown[]>();
  const pending: object[] = [root];
  const order: (Record<string, unknown> | unknown[])[] = [];
  copies.set(root, emptyLike(root));
  while (pending.length > 0) {
    const source = pending.pop() as Record<string, unknown>;
    const copy = copies.get(source) as Record<string, unknown>;
    order.push(copy);
    const keys = Object.keys(source);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      const value = source[key];
      if (!isPlainContainer(value)) {
        put(copy, key, value);
        continue;
      }
      let child = copies.get(value);
      if (child === undefined) {
        child = emptyLike(value);
        copies.set(value, child);
        pending.push(value);
      }
      put(copy, key, child);
    }
  }
  for (let index = order.length - 1; index >= 0; index--) Object.freeze(order[index]);
  return copies.get(root);
}

/**
 * A deeply frozen copy of validated arguments: the exact values every later stage, every listener
 * and the handler see. Plain objects and arrays are copied (a value shared along several paths is
 * copied once, and a cycle stays a cycle); anything else — a Date, a Map, a class instance an
 * in-process caller passed — is kept by reference, since it cannot be copied faithfully. The
 * caller's own object is never touched.
 */
export function freezeArgs(args: Readonly<Record<string, unknown>>): ToolArgs {
  const copy: Record<string, unknown> = {};
  // Flat arguments (the common case) need no bookkeeping for shared or cyclic values.
  for (const key in args) {
    if (!Object.hasOwn(args, key)) continue;
    const value = args[key];
    if (typeof value === 'object' && value !== null && isPlainContainer(value)) return copyGraph(args) as ToolArgs;
    if (key === '__proto__') put(copy, key, value);
    else copy[key] = value;
  }
  return Object.freeze(copy);
}

const PRIMITIVE_TYPES: ReadonlySet<unknown> = new Set(['string', 'number', 'integer', 'boolean', 'null']);

function isPrimitiveValue(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}

/** True when every value the property schema accepts is a primitive (so it needs no copy). */
function acceptsOnlyPrimitives(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return false;
  const { type, enum: choices, const: constant, anyOf, oneOf } = schema as Record<string, unknown>;
  if (Array.isArray(anyOf) || Array.isArray(oneOf)) {
    const branches = (Array.isArray(anyOf) ? anyOf : oneOf) as unknown[];
    return branches.length > 0 && branches.every(acceptsOnlyPrimitives);
  }
  if (typeof type === 'string') return PRIMITIVE_TYPES.has(type);
  if (Array.isArray(type)) return type.length > 0 && type.every((entry) => PRIMITIVE_TYPES.has(entry));
  if (Array.isArray(choices)) return choices.every(isPrimitiveValue);
  return 'const' in (schema as object) && isPrimitiveValue(constant);
}

/**
 * The fastest way to freeze arguments that passed `schema`. For a closed object schema
 * (`additionalProperties: false`) whose properties all hold primitives, the arguments can only be
 * those properties with primitive values, so a copier specialised to the property names builds
 * the frozen copy with plain property writes (about a quarter of the generic copy's cost); it is
 * generated from the names alone, each written as a JSON string. Any other schema gets
 * {@link freezeArgs}. Only valid for arguments the schema has accepted.
 */
export function compileArgsFreezer(schema: unknown): (args: Readonly<Record<string, unknown>>) => ToolArgs {
  if (typeof schema !== 'object' || schema === null) return freezeArgs;
  const { properties, additionalProperties, patternProperties } = schema as Record<string, unknown>;
  if (additionalProperties !== false || patternProperties !== undefined) return freezeArgs;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return freezeArgs;
  const names = Object.keys(properties);
  if (names.length === 0 || names.length > 64 || names.includes('__proto__')) return freezeArgs;
  if (!names.every((name) => acceptsOnlyPrimitives((properties as Record<string, unknown>)[name]))) return freezeArgs;
  const writes = names.map((name) => {
    const key = JSON.stringify(name);
    return `if (hasOwn(args, ${key})) copy[${key}] = args[${key}];`;
  });
  const build = new Function(
    'hasOwn',
    'freeze',
    `return function freezeValidatedArgs(args) { const copy = {}; ${writes.join(' ')} return freeze(copy); };`,
  );
  return build(Object.hasOwn, Object.freeze) as (args: Readonly<Record<string, unknown>>) => ToolArgs;
}
