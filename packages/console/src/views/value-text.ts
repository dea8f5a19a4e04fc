import { createHash } from 'node:crypto';
import { canonicalJson } from '@milpa/core/kit';

/**
 * The exact text of an argument value as the console serves it whole: a string as it is, any other
 * value as canonical JSON (keys sorted at every depth). Its SHA-256 is the digest the detail page
 * shows, so a downloaded value can be checked against the page.
 *
 * @example
 * valueText({ b: 1, a: 2 }); // '{"a":2,"b":1}'
 */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  return canonicalJson(value) ?? String(value);
}

/** The SHA-256 of `text` as UTF-8, in lowercase hex. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
