import { describe, expect, it } from 'vitest';
import { clean, cleanJson } from './audit-line-format.js';

describe('clean', () => {
  it('escapes every control and line-breaking character in a short text', () => {
    expect(clean('a\nb\u0000c\u007fd\u2028e\u2029f\tg')).toBe('a\\nb\\u0000c\\u007fd\\u2028e\\u2029f\\tg');
  });

  it('escapes them in a text longer than 64 characters too', () => {
    const long = `${'x'.repeat(80)}\r${'y'.repeat(10)}\u2029`;
    expect(clean(long)).toBe(`${'x'.repeat(80)}\\r${'y'.repeat(10)}\\u2029`);
  });

  it('returns a text without such characters unchanged', () => {
    const text = 'req-1 | mcp | lookup_note | user:42 | 3ms | OK';
    expect(clean(text)).toBe(text);
    expect(clean('z'.repeat(100))).toBe('z'.repeat(100));
  });
});

describe('cleanJson', () => {
  it('escapes the line-breaking characters JSON.stringify leaves as they are', () => {
    expect(cleanJson(JSON.stringify({ note: 'a\u2028b\u007f' }))).toBe('{"note":"a\\u2028b\\u007f"}');
  });
});
