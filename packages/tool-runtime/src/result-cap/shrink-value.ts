import { jsonForm } from './text-size.js';

/** What a cut text that does not carry the truncation note ends with. */
export const CUT_MARK = ' […]';

/** What stands for a value nested deeper than the cap keeps. */
const TOO_DEEP = '[…]';

/** Levels of nesting a cut value keeps; deeper values become {@link TOO_DEEP}. */
const MAX_DEPTH = 16;

/** Cuts `text` to at most `limit` UTF-16 code units without splitting a surrogate pair. */
export function cutText(text: string, limit: number): string {
  if (limit <= 0) return '';
  if (text.length <= limit) return text;
  let end = limit;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** `text` cut so that it and {@link CUT_MARK} fit in `limit` characters. */
export function cutWithMark(text: string, limit: number): string {
  return cutText(text, limit - CUT_MARK.length) + CUT_MARK;
}

/** A value cut to a budget: the value, the characters of its text, and whether anything was cut. */
export interface ShrunkValue {
  /** The value kept (the same value when nothing was cut). */
  readonly value: unknown;
  /** Characters of its JSON text (without escapes). */
  readonly size: number;
  /** True when something of the value was cut or left out. */
  readonly cut: boolean;
}

const OMITTED: ShrunkValue = Object.freeze({ value: undefined, size: 0, cut: false });

function scalarSize(value: unknown): number {
  return String(value).length;
}

function shrinkArray(items: readonly unknown[], budget: number, depth: number): ShrunkValue {
  const kept: unknown[] = [];
  let size = 2;
  let cut = false;
  for (const item of items) {
    const room = budget - size - 1;
    const shrunk = room > 0 ? shrinkAt(item, room, depth + 1) : null;
    if (shrunk === null) {
      cut = true;
      break;
    }
    kept.push(shrunk.value === undefined ? null : shrunk.value);
    size += shrunk.size + 1;
    if (shrunk.cut) {
      cut = true;
      break;
    }
  }
  return cut ? { value: Object.freeze(kept), size, cut } : { value: items, size, cut };
}

function shrinkObject(object: Readonly<Record<string, unknown>>, budget: number, depth: number): ShrunkValue {
  const kept: Record<string, unknown> = {};
  let size = 2;
  let cut = false;
  for (const key of Object.keys(object)) {
    const room = budget - size - key.length - 4;
    const shrunk = room > 0 ? shrinkAt(object[key], room, depth + 1) : null;
    if (shrunk === null) {
      cut = true;
      break;
    }
    if (shrunk.value === undefined) continue;
    kept[key] = shrunk.value;
    size += shrunk.size + key.length + 4;
    if (shrunk.cut) {
      cut = true;
      break;
    }
  }
  return cut ? { value: Object.freeze(kept), size, cut } : { value: object, size, cut };
}

/** `value` cut to `budget`, or null when not even a cut form fits. */
function shrinkAt(value: unknown, budget: number, depth: number): ShrunkValue | null {
  const item = typeof value === 'object' && value !== null ? jsonForm(value) : value;
  if (typeof item === 'string') {
    if (item.length + 2 <= budget) return { value: item, size: item.length + 2, cut: false };
    if (budget < CUT_MARK.length + 3) return null;
    const text = cutWithMark(item, budget - 2);
    return { value: text, size: text.length + 2, cut: true };
  }
  if (item === undefined || typeof item === 'function' || typeof item === 'symbol') return OMITTED;
  if (typeof item !== 'object' || item === null) {
    const size = scalarSize(item);
    return size <= budget ? { value: item, size, cut: false } : null;
  }
  if (depth >= MAX_DEPTH) return budget >= TOO_DEEP.length + 2 ? { value: TOO_DEEP, size: TOO_DEEP.length + 2, cut: true } : null;
  return Array.isArray(item) ? shrinkArray(item, budget, depth) : shrinkObject(item as Readonly<Record<string, unknown>>, budget, depth);
}

/**
 * `value` cut to about `budget` characters of JSON text, keeping its shape: an object keeps its
 * first entries and an array its first items while they fit, the one string that does not fit is
 * cut and ends with {@link CUT_MARK}, and everything after it is left out; nesting deeper than 16
 * levels becomes `'[…]'`. The value itself when it fits. Never throws, never loops on a cycle.
 */
export function shrinkValue(value: unknown, budget: number): ShrunkValue {
  return shrinkAt(value, budget, 0) ?? { value: '', size: 2, cut: true };
}
