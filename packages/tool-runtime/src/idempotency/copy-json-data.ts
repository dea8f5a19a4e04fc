/** Returned by the fast copy for a value it leaves to `JSON.stringify` and `JSON.parse`. */
const NOT_PLAIN = Symbol('not plain');

// Deeper values take the JSON round trip, which also refuses a cycle.
const MAX_PLAIN_DEPTH = 64;

/**
 * A copy of plain data — strings, numbers, booleans, null, arrays and objects whose prototype is
 * `Object.prototype`, none with `toJSON` or a `__proto__` key — equal to what a JSON round trip
 * gives: non-finite numbers become null, `-0` becomes 0, undefined, function and symbol members
 * are left out (null in arrays). `undefined` stands for a member to leave out; NOT_PLAIN for
 * anything else.
 */
function copyPlain(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value + 0 : null;
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'bigint':
      return NOT_PLAIN;
  }
  if (value === null) return null;
  if (depth > MAX_PLAIN_DEPTH) return NOT_PLAIN;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (prototype !== Array.prototype || typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
    const items: unknown[] = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) {
      const item = copyPlain(value[index], depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      items[index] = item === undefined ? null : item;
    }
    return items;
  }
  if (prototype !== Object.prototype || typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
  const record = value as Record<string, unknown>;
  if (isFrozenFlatData(record)) return record;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    // Assigning `__proto__` would set the copy's prototype; JSON.parse makes it a data member.
    if (key === '__proto__') return NOT_PLAIN;
    const member = copyPlain(record[key], depth + 1);
    if (member === NOT_PLAIN) return NOT_PLAIN;
    if (member !== undefined) copy[key] = member;
  }
  return copy;
}

/**
 * True when `record` (a plain object) is frozen and holds only strings, booleans, null and finite
 * numbers other than -0, none under `__proto__`: what a JSON round trip gives back equals it
 * member for member, and it can never change, so it is kept as it is (a result's `meta` is such an
 * object).
 */
function isFrozenFlatData(record: Record<string, unknown>): boolean {
  if (!Object.isFrozen(record)) return false;
  for (const key of Object.keys(record)) {
    if (key === '__proto__') return false;
    const member = record[key];
    const kind = typeof member;
    if (kind === 'string' || kind === 'boolean' || member === null) continue;
    if (kind !== 'number' || !Number.isFinite(member) || Object.is(member, -0)) return false;
  }
  return true;
}

/**
 * `JSON.parse(JSON.stringify(value))`, the JSON data a store keeps, sharing nothing with `value`
 * that could change: plain data is copied directly, member by member (several times cheaper than
 * writing and reading the text), and a frozen object of strings, numbers, booleans and nulls is
 * kept as it is; anything else takes the round trip itself.
 *
 * @throws TypeError (or RangeError) as `JSON.stringify` does, for a cycle or a BigInt; SyntaxError
 *   for a value that has no JSON text (a top-level `undefined`).
 */
export function copyJsonData(value: unknown): unknown {
  const copy = copyPlain(value, 0);
  if (copy !== NOT_PLAIN && copy !== undefined) return copy;
  return JSON.parse(JSON.stringify(value) as string) as unknown;
}
