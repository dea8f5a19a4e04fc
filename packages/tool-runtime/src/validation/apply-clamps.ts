import type { ClampRule } from '@milpa/core';

/** Cuts `text` to its first `maxLength` characters, counting code points (an emoji is one character). */
function truncateCodePoints(text: string, maxLength: number): string {
  // UTF-16 length is never below the code-point count, so short strings need no scan.
  if (text.length <= maxLength) return text;
  let index = 0;
  let count = 0;
  while (index < text.length && count < maxLength) {
    const code = text.charCodeAt(index);
    index += code >= 0xd800 && code <= 0xdbff && index + 1 < text.length ? 2 : 1;
    count += 1;
  }
  return index >= text.length ? text : text.slice(0, index);
}

function clampValue(value: unknown, rule: ClampRule): unknown {
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return value;
    let bounded = value;
    if (rule.min !== undefined && bounded < rule.min) bounded = rule.min;
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
    if (rule === undefined || value === null || value === undefined) continue;
    const clamped = clampValue(value, rule);
    if (Object.is(clamped, value)) continue;
    result ??= { ...args };
    // defineProperty, not assignment: a field named `__proto__` must stay a plain data field.
    Object.defineProperty(result, field, { value: clamped, writable: true, enumerable: true, configurable: true });
  }
  return result ?? args;
}
