import { describe, expect, it } from 'vitest';
import { escapeCodePoint, holdsHiddenCharacters, revealName, revealNameAsText, revealText } from './reveal-text.js';

/** The text a reader sees: escape elements as their `\u{…}` text, entities decoded. */
function seen(html: string): string {
  return html
    .replace(/<span class="escape"[^>]*>([^<]*)<\/span>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

const escapes = (html: string): string[] => [...html.matchAll(/<span class="escape"[^>]*>([^<]*)<\/span>/g)].map((match) => match[1]!);

describe('revealText', () => {
  it('shows a right-to-left override as an escape, so a file name cannot pass for another', () => {
    const shown = revealText('invoice\u202Efdp.exe');
    expect(seen(shown.html)).toBe('invoice\\u{202E}fdp.exe');
    expect(shown.escaped).toBe(1);
    expect(shown.html).toContain('aria-label="hidden character U+202E, right-to-left override"');
    expect(seen(revealText('pay \u202E0001$').html)).toBe('pay \\u{202E}0001$');
  });

  it.each([
    ['bidirectional embeddings and overrides', [0x202a, 0x202b, 0x202c, 0x202d, 0x202e]],
    ['bidirectional isolates', [0x2066, 0x2067, 0x2068, 0x2069]],
    ['zero-width characters and marks', [0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x061c]],
    ['invisible operators and the word joiner', [0x2060, 0x2061, 0x2062, 0x2063, 0x2064]],
    ['the byte-order mark and the soft hyphen', [0xfeff, 0xad]],
    ['tag characters', [0xe0001, 0xe0041, 0xe007f]],
    ['controls other than line feed and tab', [0x00, 0x07, 0x0d, 0x1b, 0x7f, 0x85, 0x9f]],
    ['line and paragraph separators', [0x2028, 0x2029]],
    ['spaces other than U+0020', [0xa0, 0x2000, 0x2007, 0x202f, 0x205f, 0x3000, 0x1680]],
    ['unassigned and private-use code points', [0x0378, 0xe000, 0xf8ff, 0xf0000, 0x10fffd]],
    ['Hangul fillers and the combining grapheme joiner', [0x115f, 0x1160, 0x3164, 0xffa0, 0x034f]],
    ['variation selectors outside a single emoji selector', [0xfe00, 0xfe0d, 0xe0100, 0xe01ef]],
  ])('escapes %s', (_name, codes) => {
    for (const code of codes) {
      const text = `a${String.fromCodePoint(code)}b`;
      const shown = revealText(text);
      expect(seen(shown.html), `U+${code.toString(16)}`).toBe(`a${escapeCodePoint(code)}b`);
      expect(shown.escaped).toBe(1);
      expect(holdsHiddenCharacters(text)).toBe(true);
    }
  });

  it('keeps line feeds, tabs, spaces and ordinary letters of any script as they are', () => {
    const text = 'line one\nline two\tend café 日本語 שלום مرحبا 😀 <b>&';
    const shown = revealText(text);
    expect(shown.escaped).toBe(0);
    expect(seen(shown.html)).toBe(text);
    expect(shown.html).not.toContain('<b>');
    expect(holdsHiddenCharacters(text)).toBe(false);
  });

  it('keeps one emoji presentation selector after a visible character, and escapes runs of them', () => {
    expect(revealText('I \u2764\uFE0F it').escaped).toBe(0);
    expect(seen(revealText('\u2764\uFE0F\uFE0F').html)).toBe('\u2764\uFE0F\\u{FE0F}');
    expect(revealText('\uFE0Fstart').escaped).toBe(1);
    expect(revealText('a \uFE0E').escaped).toBe(1);
    // A payload hidden in supplementary selectors after an emoji.
    expect(revealText('😀\u{E0100}\u{E0101}\u{E0102}').escaped).toBe(3);
  });

  it('escapes a supplementary character whole (one escape for its surrogate pair) and lone surrogates', () => {
    expect(escapes(revealText('x\u{E0041}y').html)).toEqual(['\\u{E0041}']);
    expect(escapes(revealText('x\uD800y\uDC00z').html)).toEqual(['\\u{D800}', '\\u{DC00}']);
    expect(revealText('😀').escaped).toBe(0);
  });

  it('leaves text that merely looks like an escape as plain text, so it is never taken for a hidden character', () => {
    const typed = revealText('invoice\\u{202E}fdp.exe');
    expect(typed.escaped).toBe(0);
    expect(escapes(typed.html)).toEqual([]);
    expect(seen(typed.html)).toBe('invoice\\u{202E}fdp.exe');
    const both = revealText('\\u{202E}\u202E');
    expect(both.escaped).toBe(1);
    expect(both.html).toBe(
      '\\u{202E}<span class="escape" role="img" aria-label="hidden character U+202E, right-to-left override" ' +
        'title="hidden character U+202E, right-to-left override">\\u{202E}</span>',
    );
  });

  it('escapes markup in the text around the escapes', () => {
    expect(revealText('<img src=x onerror=alert(1)>\u200B"').html).toMatch(
      /^&lt;img src=x onerror=alert\(1\)&gt;<span[^>]*>\\u\{200B\}<\/span>&quot;$/,
    );
  });

  it('scans a 1 MB value quickly and finds a hidden character at its end', () => {
    const text = `${'a'.repeat(1_000_000)}\u202E`;
    expect(holdsHiddenCharacters(text)).toBe(true);
    expect(holdsHiddenCharacters(text.slice(0, -1))).toBe(false);
  });
});

describe('revealName', () => {
  it('escapes every character outside printable ASCII, look-alike letters included', () => {
    const shown = revealName('pr\u0456nt_note');
    expect(seen(shown.html)).toBe('pr\\u{0456}nt_note');
    expect(shown.escaped).toBe(1);
    expect(revealName('user:jos\u00E9').escaped).toBe(1);
    expect(revealName('delete\u200B_note').escaped).toBe(1);
    expect(revealName('print_note').escaped).toBe(0);
    expect(revealName('run-1 a:b.c').escaped).toBe(0);
  });

  it('gives a plain-text form for page titles', () => {
    expect(revealNameAsText('pr\u0456nt\u202E_note')).toBe('pr\\u{0456}nt\\u{202E}_note');
  });
});
