/** How a rendered value reads: plain, a positive word (`Yes`) or a muted one (`No`, `N/A`). */
export type ValueTone = 'plain' | 'positive' | 'muted';

/** A value as display text plus its tone, so a colour renderer can tint it. */
export interface ValueText {
  /** The text. */
  readonly text: string;
  /** Its tone. */
  readonly tone: ValueTone;
}

/** JSON of any value without throwing: bigints become strings, a cycle becomes a marker. */
export function toJsonText(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item)) ?? String(value);
  } catch {
    return '[unserializable value]';
  }
}

/**
 * A data value as text: null reads `N/A`, booleans read `Yes`/`No` (not `1` and an empty string),
 * objects and arrays are JSON.
 */
export function describeValue(value: unknown): ValueText {
  if (value === null || value === undefined) return { text: 'N/A', tone: 'muted' };
  if (value === true) return { text: 'Yes', tone: 'positive' };
  if (value === false) return { text: 'No', tone: 'muted' };
  if (typeof value === 'object') return { text: toJsonText(value), tone: 'plain' };
  return { text: String(value), tone: 'plain' };
}
