import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LONG_VALUE_LENGTH, showValue } from './show-value.js';
import { summarizeArguments } from './summarize-arguments.js';

describe('showValue', () => {
  it('shows a short string with its line breaks and escapes, and a warning when it hides characters', () => {
    expect(showValue('line one\nline two <b>', null)).toBe('line one\nline two &lt;b&gt;');
    const hidden = showValue('invoice\u202Efdp.exe', null);
    expect(hidden).toContain('<p class="warning">This value holds invisible or direction-changing characters');
    expect(hidden).toContain('>\\u{202E}</span>fdp.exe');
  });

  it('shows other short values as JSON, escaped', () => {
    expect(showValue({ a: '<b>' }, null)).toBe('<code>{\n &quot;a&quot;: &quot;&lt;b&gt;&quot;\n}</code>');
  });

  it('collapses a 1 MB string: its length, its digest, a preview, the start, and a link to the whole value', () => {
    const value = `${'a'.repeat(999_999)}\u202E`;
    const html = showValue(value, '/approvals/approvals/a1/arguments/body');
    const digest = createHash('sha256').update(value, 'utf8').digest('hex');
    expect(html.length).toBeLessThan(8000);
    expect(html).toContain('1,000,000 characters, 1,000,002 bytes');
    expect(html).toContain(`title="${digest}"`);
    expect(html).toContain(`>${digest.slice(0, 12)}…</code>`);
    expect(html).toContain('<details><summary>Show the first 2,000 characters</summary>');
    expect(html).toContain('<a href="/approvals/approvals/a1/arguments/body">Open the whole value</a>');
    // The hidden character is far past the preview; the warning still says it is there.
    expect(html).toContain('class="warning"');
  });

  it('collapses a long JSON value with the digest of its canonical JSON', () => {
    const value = { z: 'y'.repeat(LONG_VALUE_LENGTH), a: 1 };
    const canonical = JSON.stringify({ a: 1, z: value.z });
    const html = showValue(value, null);
    expect(html).toContain(`title="${createHash('sha256').update(canonical).digest('hex')}"`);
    expect(html).toContain('Show the whole value');
  });

  it('keeps a string of exactly the limit in full', () => {
    expect(showValue('b'.repeat(LONG_VALUE_LENGTH), null)).not.toContain('long-value');
  });
});

describe('summarizeArguments', () => {
  it('summarises fields in order, strings quoted and cut, lists and objects counted', () => {
    expect(summarizeArguments({ id: 'n1', copies: 2, title: 'race one' })).toBe('id: "n1" · copies: 2 · title: "race one"');
    expect(summarizeArguments({ title: 'r'.repeat(100) })).toBe(`title: "${'r'.repeat(40)}…"`);
    expect(summarizeArguments({ tags: ['a', 'b'], meta: { k: 1 }, on: true, none: null })).toBe(
      'tags: [2 items] · meta: {1 field} · on: true · none: null',
    );
    expect(summarizeArguments({})).toBe('No arguments');
  });

  it('stays within about 120 characters whatever the arguments, and quotes line breaks', () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`field${index}`, 'x'.repeat(1_000_000)]));
    expect(summarizeArguments(many).length).toBeLessThanOrEqual(121);
    expect(summarizeArguments({ body: 'a\nb' })).toBe('body: "a\\nb"');
  });

  it('keeps hidden characters for the escaper to show', () => {
    expect(summarizeArguments({ file: 'invoice\u202Efdp.exe' })).toBe('file: "invoice\u202Efdp.exe"');
  });
});
