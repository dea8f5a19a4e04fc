/** The note a cut result ends with, telling the model how to get the rest. */
export function truncationNote(originalChars: number, maxChars: number): string {
  return `\n\n[Result truncated: it was ${originalChars} characters, over the limit of ${maxChars}. Narrow the request, or page with offset to read the rest.]`;
}

/**
 * True when the text form of `value` surely has more than `limit` characters. Walks the value and
 * stops as soon as the count passes the limit, so a small result costs a few steps, never a full
 * serialization. Counts string lengths and keys; structure characters are ignored (an estimate
 * from below, so a result it lets through is within a few percent of the limit at most).
 */
function exceeds(value: unknown, limit: number): boolean {
  let total = 0;
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') total += item.length;
    else if (typeof item === 'number' || typeof item === 'boolean' || typeof item === 'bigint') total += 4;
    else if (typeof item === 'object' && item !== null) {
      if (seen.has(item)) continue;
      seen.add(item);
      if (Array.isArray(item)) {
        for (const element of item) stack.push(element);
      } else {
        for (const key of Object.keys(item)) {
          total += key.length;
          stack.push((item as Record<string, unknown>)[key]);
        }
      }
    }
    if (total > limit) return true;
  }
  return false;
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Cuts `text` to `limit` UTF-16 code units without splitting a surrogate pair. */
function cut(text: string, limit: number): string {
  let end = limit;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** What {@link capResultData} answers for data over the cap. */
export interface CappedData {
  /** The cut text, ending with the truncation note. */
  readonly data: string;
  /** The characters of the data's text before the cut. */
  readonly originalChars: number;
}

/**
 * The data of a result, cut to `maxChars` characters of its text (a string as it is, anything
 * else as JSON) followed by a note; null when it fits (the common case, decided without
 * serializing small results).
 */
export function capResultData(data: unknown, maxChars: number): CappedData | null {
  if (data === null || data === undefined) return null;
  if (typeof data === 'string' ? data.length <= maxChars : !exceeds(data, maxChars)) return null;
  const text = textOf(data);
  if (text.length <= maxChars) return null;
  return { data: cut(text, maxChars) + truncationNote(text.length, maxChars), originalChars: text.length };
}
