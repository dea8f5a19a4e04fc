import { clipText } from '@milpa/core/kit';

/** The longest key a log line quotes whole. */
const MAX_LOGGED_KEY = 100;
/** The longest string a log line quotes whole. */
const MAX_LOGGED_STRING = 1000;

/**
 * `value` (an already redacted view of a call's arguments) as a log line may carry it: every key
 * over 100 characters and every string over 1,000 cut, with its original length noted
 * (`kkkk… (4000000 characters)`), so what a caller sends can never make a log line of megabytes. The
 * same object back when nothing needed cutting; arrays and objects are copied only where they change.
 *
 * @example
 * boundForLog({ note: 'x'.repeat(5000) }); // { note: 'xxx… (5000 characters)' }
 */
export function boundForLog(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_LOGGED_STRING ? clipText(value, MAX_LOGGED_STRING) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item: unknown) => {
      const bounded = boundForLog(item);
      if (bounded !== item) changed = true;
      return bounded;
    });
    return changed ? items : value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let copy: Record<string, unknown> | null = null;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    const inner = record[key];
    const boundedKey = key.length > MAX_LOGGED_KEY ? clipText(key, MAX_LOGGED_KEY) : key;
    const bounded = boundForLog(inner);
    if (copy === null && (boundedKey !== key || bounded !== inner)) {
      copy = {};
      for (const earlier of keys.slice(0, index)) put(copy, earlier, record[earlier]);
    }
    if (copy !== null) put(copy, boundedKey, bounded);
  }
  return copy ?? value;
}

function put(target: Record<string, unknown>, key: string, value: unknown): void {
  // A `__proto__` key stays an ordinary field, never reaches the prototype.
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}
