/**
 * A copy of `value` (plain JSON-like data: a redacted view of a call's arguments) with every string
 * value passed through `value` and every object key through `key`; arrays and objects are copied
 * only where something changed, so data that needs nothing comes back as the same object. A
 * `__proto__` key stays an ordinary field.
 *
 * @example
 * mapStrings({ a: 'x' }, { value: (text) => text.toUpperCase(), key: (name) => name }); // { a: 'X' }
 */
export function mapStrings(
  value: unknown,
  map: { readonly value: (text: string) => string; readonly key: (name: string) => string },
): unknown {
  if (typeof value === 'string') return map.value(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item: unknown) => {
      const mapped = mapStrings(item, map);
      if (mapped !== item) changed = true;
      return mapped;
    });
    return changed ? items : value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let copy: Record<string, unknown> | null = null;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const inner = record[key];
    const mappedKey = map.key(key);
    const mapped = mapStrings(inner, map);
    if (copy === null && (mappedKey !== key || mapped !== inner)) {
      copy = {};
      for (const earlier of keys.slice(0, index)) put(copy, earlier, record[earlier]);
    }
    if (copy !== null) put(copy, mappedKey, mapped);
  }
  return copy ?? value;
}

function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}
