/**
 * What {@link mapStrings} applies: a function for every string value and one for every object key,
 * each handed the walk's `state`, so a caller keeps its mappers at module level and passes what they
 * need as state instead of building closures on every call.
 */
export interface StringMapper<State> {
  /** The new form of a string value. */
  readonly value: (text: string, state: State) => string;
  /** The new form of an object key. */
  readonly key: (name: string, state: State) => string;
}

/**
 * A copy of `value` (plain JSON-like data: a redacted view of a call's arguments) with every string
 * value passed through `map.value` and every object key through `map.key`, each with `state`;
 * arrays and objects are copied only where something changed, so data that needs nothing comes back
 * as the same object. A `__proto__` key stays an ordinary field.
 *
 * @example
 * mapStrings({ a: 'x' }, { value: (text) => text.toUpperCase(), key: (name) => name }); // { a: 'X' }
 */
export function mapStrings<State = undefined>(value: unknown, map: StringMapper<State>, state?: State): unknown {
  if (typeof value === 'string') return map.value(value, state as State);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let items: unknown[] | null = null;
    for (let index = 0; index < value.length; index++) {
      if (!(index in value)) {
        // A hole stays a hole, as Array.prototype.map would leave it.
        if (items !== null) items.length = index + 1;
        continue;
      }
      const item: unknown = value[index];
      const mapped = mapStrings(item, map, state);
      if (items === null && mapped !== item) items = value.slice(0, index);
      if (items !== null) items.push(mapped);
    }
    return items ?? value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let copy: Record<string, unknown> | null = null;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const inner = record[key];
    const mappedKey = map.key(key, state as State);
    const mapped = mapStrings(inner, map, state);
    if (copy === null && (mappedKey !== key || mapped !== inner)) {
      copy = {};
      for (let earlier = 0; earlier < index; earlier++) {
        const earlierKey = keys[earlier] as string;
        put(copy, earlierKey, record[earlierKey]);
      }
    }
    if (copy !== null) put(copy, mappedKey, mapped);
  }
  return copy ?? value;
}

function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}
