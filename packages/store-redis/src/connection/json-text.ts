import { MilpaError } from '@milpa/core';

/** True when `parsed` (what JSON.parse gave back) holds exactly the data of `given`. */
function isFaithful(given: unknown, parsed: unknown): boolean {
  if (typeof given !== 'object' || given === null) return given === parsed;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(given) !== Array.isArray(parsed)) return false;
  if (Array.isArray(given)) {
    const items = parsed as unknown[];
    return given.length === items.length && given.every((item: unknown, index) => isFaithful(item, items[index]));
  }
  const prototype = Object.getPrototypeOf(given) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  const fields = parsed as Record<string, unknown>;
  const keys = Object.keys(given);
  return (
    keys.length === Object.keys(fields).length &&
    keys.every((key) => Object.hasOwn(fields, key) && isFaithful((given as Record<string, unknown>)[key], fields[key]))
  );
}

/**
 * `value` as JSON text, for a key. Only plain JSON data is accepted, so what a store reads back is
 * exactly what it was given: a value that JSON would drop or change (a function, `undefined`, a
 * bigint, a non-finite number, a Date, a class instance, a cycle) is refused rather than stored
 * altered.
 *
 * @throws MilpaError `INVALID_ARGUMENT` naming `what`.
 */
export function toJsonText(value: unknown, what: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new MilpaError(`${what} must be plain JSON data: ${error instanceof Error ? error.message : String(error)}.`, {
      code: 'INVALID_ARGUMENT',
      cause: error,
    });
  }
  if (text === undefined || !isFaithful(value, JSON.parse(text))) {
    throw new MilpaError(
      `${what} must be plain JSON data; JSON would drop or change part of it (a function, undefined, a bigint, a non-finite ` +
        `number, a Date or a class instance).`,
      {
        code: 'INVALID_ARGUMENT',
      },
    );
  }
  return text;
}

function freezeDeeply<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) freezeDeeply(inner);
  }
  return value;
}

/** Parses JSON text read from Redis and freezes it deeply; undefined when it is not JSON. */
export function fromJsonText(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return freezeDeeply(JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
