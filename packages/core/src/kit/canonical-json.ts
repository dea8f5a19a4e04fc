/** Returned by the fast writer for a value it leaves to `JSON.stringify` (see {@link writePlain}). */
const NOT_PLAIN = Symbol('not plain');

// Deeper values are left to JSON.stringify, which also turns a cycle into a RangeError.
const MAX_PLAIN_DEPTH = 64;

/**
 * The canonical JSON of `value` when it is plain data — strings, numbers, booleans, null, arrays
 * and objects whose prototype is `Object.prototype`, none with `toJSON` and no object with an
 * array-index key — written directly, without the copies the replacer makes. `undefined` means
 * "left out" (an undefined, function or symbol member); NOT_PLAIN means anything else, which the
 * replacer path writes. On the values it accepts its text is exactly the replacer path's: the same
 * escapes (JSON.stringify writes every string and key), the same numbers, keys in code-unit order.
 */
function writePlain(value: unknown, depth: number): string | undefined | typeof NOT_PLAIN {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'bigint':
      return NOT_PLAIN;
  }
  if (value === null) return 'null';
  if (depth > MAX_PLAIN_DEPTH) return NOT_PLAIN;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (prototype !== Array.prototype || typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
    let text = '[';
    for (let index = 0; index < value.length; index++) {
      const item = writePlain(value[index], depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      text += `${index === 0 ? '' : ','}${item ?? 'null'}`;
    }
    return `${text}]`;
  }
  if (prototype !== Object.prototype || typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // Array-index keys come first in key order whatever their text sorts as; those objects take the replacer path.
  if (keys.length > 0 && isArrayIndex(keys[0] as string)) return NOT_PLAIN;
  keys.sort();
  let text = '{';
  let first = true;
  for (const key of keys) {
    const member = writePlain(record[key], depth + 1);
    if (member === NOT_PLAIN) return NOT_PLAIN;
    if (member === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${member}`;
    first = false;
  }
  return `${text}}`;
}

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

function isArrayIndex(key: string): boolean {
  return ARRAY_INDEX.test(key) && Number(key) < 4_294_967_295;
}

/**
 * JSON with every object's keys sorted at every depth, so two values that differ only in key order
 * give the same text and any other difference gives different text. `undefined` members are left
 * out as `JSON.stringify` leaves them out; `toJSON` is honoured. Null for a value JSON cannot hold
 * (a cycle, a BigInt, a top-level `undefined` or function): such a value equals nothing, not even
 * itself.
 *
 * @example
 * canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }); // '{"a":[2,{"c":4,"d":3}],"b":1}'
 */
export function canonicalJson(value: unknown): string | null {
  try {
    // Plain data (what validated arguments are) is written directly: a digest is taken on every
    // governed call that carries an idempotency key or is held for approval.
    const plain = writePlain(value, 0);
    if (plain !== NOT_PLAIN) return plain ?? null;
    const text = JSON.stringify(value, (_key, inner: unknown) => {
      if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) return inner;
      const record = inner as Record<string, unknown>;
      // A null prototype: a `__proto__` key is copied as data, never as the copy's prototype.
      const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const key of Object.keys(record).sort()) sorted[key] = record[key];
      return sorted;
    });
    return typeof text === 'string' ? text : null;
  } catch {
    return null;
  }
}
