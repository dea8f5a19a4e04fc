/** Characters a number, boolean or null can take at most in JSON text (a double's longest form). */
const SCALAR_CHARS = 24;

/** Characters of a whole number from 0 to 999,999,999 at most in JSON text (the common count or id). */
const SMALL_INTEGER_CHARS = 9;

/** What JSON text would use in place of `value`: the answer of its `toJSON()` when it has one (undefined when it throws). */
export function jsonForm(value: object): unknown {
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON !== 'function') return value;
  try {
    return toJSON.call(value);
  } catch {
    return undefined;
  }
}

/** The most characters {@link textSizeWithin} counts when asked for a whole size (a cycle has none). */
export const WHOLE_SIZE_LIMIT = 1_000_000;

/**
 * An upper bound of the characters of `value` as text (a string counts its length plus quotes,
 * anything else its JSON text without escapes), or `limit + 1` as soon as the bound passes
 * `limit`. Walks the value and stops early, so a small value costs a few steps and a huge one
 * never more than about `limit` steps; nothing is serialized. An object shared along several
 * paths counts once per path, as JSON writes it; a cycle counts until it passes the limit.
 */
export function textSizeWithin(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    let item = stack.pop();
    if (typeof item === 'object' && item !== null) item = jsonForm(item);
    if (typeof item === 'string') total += item.length + 2;
    else if (typeof item === 'object' && item !== null) {
      // Every object adds at least 2, so a cycle passes any limit and the walk ends.
      total += 2;
      if (Array.isArray(item)) {
        total += item.length;
        for (const element of item) stack.push(element);
      } else {
        for (const key of Object.keys(item)) {
          // The key, its quotes, the colon and the comma.
          total += key.length + 4;
          stack.push((item as Record<string, unknown>)[key]);
        }
      }
    } else if (typeof item === 'boolean' || item === null) total += 5;
    else total += typeof item === 'number' && item >= 0 && item < 1e9 && Number.isInteger(item) ? SMALL_INTEGER_CHARS : SCALAR_CHARS;
    if (total > limit) return limit + 1;
  }
  return total;
}
