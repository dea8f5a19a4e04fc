import type { ClampRule } from '@milpa/core';

/** Cuts `text` to its first `maxLength` characters, counting code points (an emoji is one character). */
function truncateCodePoints(text: string, maxLength: number): string {
  // UTF-16 length is never below the code-point count, so short strings need no scan.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a shortcut only; the loop below returns `text` itself for any string
  // of at most maxLength units.
  if (text.length <= maxLength) return text;
  let index = 0;
  let count = 0;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end charCodeAt is NaN and each step adds 1, so `index` ends
  // at or beyond `text.length` and the return below yields `text` either way (the `count` bound is killed by the truncation tests, which
  // the disable also hides).
  while (index < text.length && count < maxLength) {
    const code = text.charCodeAt(index);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: the `index + 1 < text.length` guard only matters
    // for a high surrogate in the last unit, where stepping 2 instead of 1 still ends the loop at or past the end and returns `text` (the
    // surrogate-range mutants are killed by the 0xD800/0xDBFF/U+FF21 tests, which the disable also hides).
    index += code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? 2 : 1;
    count += 1;
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: `text.slice(0, index)` with `index >= text.length` is a string equal
  // to `text`.
  return index >= text.length ? text : text.slice(0, index);
}

function clampValue(value: unknown, rule: ClampRule): unknown {
  if (typeof value === 'number') {
    // Stryker disable next-line ConditionalExpression: NaN fails both comparisons below, so it comes back unchanged without the guard too.
    if (Number.isNaN(value)) return value;
    let bounded = value;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a comparison with undefined is false, and a value equal to the
    // bound becomes that same bound.
    if (rule.min !== undefined && bounded < rule.min) bounded = rule.min;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a comparison with undefined is false, and a value equal to the
    // bound becomes that same bound.
    if (rule.max !== undefined && bounded > rule.max) bounded = rule.max;
    return bounded;
  }
  if (typeof value === 'string' && rule.maxLength !== undefined) return truncateCodePoints(value, rule.maxLength);
  return value;
}

/**
 * Applies clamps to the top-level fields of `args` (clamps coerce first, so schema bounds
 * never reject a value a clamp would have fixed).
 * Numbers are bounded to `[min, max]`, strings cut to `maxLength` characters; absent or null fields
 * and values of other types are left alone. Returns `args` itself when nothing changes, otherwise a
 * shallow copy, so the caller's object is never mutated.
 */
export function applyClamps(
  args: Readonly<Record<string, unknown>>,
  clamps: Readonly<Record<string, ClampRule>>,
): Readonly<Record<string, unknown>> {
  let result: Record<string, unknown> | null = null;
  for (const field in clamps) {
    if (!Object.hasOwn(clamps, field) || !Object.hasOwn(args, field)) continue;
    const rule = clamps[field];
    const value = args[field];
    // Stryker disable next-line ConditionalExpression: null and undefined are neither numbers nor strings, so clampValue returns them
    // unchanged and Object.is skips them anyway; the `rule === undefined` check is killed by the tests, which the disable also hides.
    if (rule === undefined || value === null || value === undefined) continue;
    const clamped = clampValue(value, rule);
    if (Object.is(clamped, value)) continue;
    result ??= { ...args };
    // defineProperty, not assignment: a field named `__proto__` must stay a plain data field.
    Object.defineProperty(result, field, { value: clamped, writable: true, enumerable: true, configurable: true });
  }
  return result ?? args;
}
