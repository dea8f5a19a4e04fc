import { escapeHtml } from '../security/escape-html.js';

/** Text from a held call as HTML, with every character that would hide or reorder text shown as an escape. */
export interface RevealedText {
  /** The text, HTML-escaped, each hidden character replaced by a visible `\u{…}` escape. */
  readonly html: string;
  /** How many characters were shown as escapes (0: the text shows as it is). */
  readonly escaped: number;
}

/**
 * Characters a value never shows as they are: controls (but line feed and tab), format characters
 * (bidirectional controls, zero-width characters, the byte-order mark, tag characters), line and
 * paragraph separators, spaces other than U+0020, unassigned and private-use code points, lone
 * surrogates, and every other default-ignorable code point (Hangul fillers, the combining grapheme
 * joiner, variation selectors — see {@link isEmojiPresentation}).
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Zs}\p{Cn}\p{Co}\p{Cs}\p{Default_Ignorable_Code_Point}]/gu;

/** In a name (tool, requester, run), everything but printable ASCII and the space is escaped: look-alikes included. */
const NOT_PLAIN_ASCII = /[^\x20-\x7E]/gu;

/** Short names for the characters most used to disguise text, read by screen readers. */
const NAMES: ReadonlyMap<number, string> = new Map([
  [0x09, 'tab'],
  [0x0d, 'carriage return'],
  [0xa0, 'no-break space'],
  [0xad, 'soft hyphen'],
  [0x061c, 'Arabic letter mark'],
  [0x200b, 'zero width space'],
  [0x200c, 'zero width non-joiner'],
  [0x200d, 'zero width joiner'],
  [0x200e, 'left-to-right mark'],
  [0x200f, 'right-to-left mark'],
  [0x2028, 'line separator'],
  [0x2029, 'paragraph separator'],
  [0x202a, 'left-to-right embedding'],
  [0x202b, 'right-to-left embedding'],
  [0x202c, 'pop directional formatting'],
  [0x202d, 'left-to-right override'],
  [0x202e, 'right-to-left override'],
  [0x2060, 'word joiner'],
  [0x2066, 'left-to-right isolate'],
  [0x2067, 'right-to-left isolate'],
  [0x2068, 'first strong isolate'],
  [0x2069, 'pop directional isolate'],
  [0xfeff, 'zero width no-break space'],
]);

/** The escape shown for the code point `code`: `\u{202E}` (at least four hex digits). */
export function escapeCodePoint(code: number): string {
  return `\\u{${code.toString(16).toUpperCase().padStart(4, '0')}}`;
}

function escapeSpan(code: number): string {
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = NAMES.get(code);
  const label = name === undefined ? `hidden character ${hex}` : `hidden character ${hex}, ${name}`;
  // role="img" with a label: a screen reader announces the character instead of reading the
  // backslash text (and a look-alike letter is never read as the letter it imitates).
  return `<span class="escape" role="img" aria-label="${escapeHtml(label)}" title="${escapeHtml(label)}">${escapeCodePoint(code)}</span>`;
}

/** The code point that ends just before `index` in `text`, or null at the start. */
function codePointBefore(text: string, index: number): number | null {
  if (index === 0) return null;
  const unit = text.charCodeAt(index - 1);
  if (unit >= 0xdc00 && unit <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(index - 2) ?? unit;
  }
  return unit;
}

/** The same class as {@link HIDDEN}, without the global flag: testing one character never moves a running scan. */
const HIDDEN_CHARACTER = new RegExp(HIDDEN.source, 'u');

function isHidden(code: number): boolean {
  if (code === 0x0a || code === 0x09 || code === 0x20) return false;
  return HIDDEN_CHARACTER.test(String.fromCodePoint(code));
}

/**
 * True for a single emoji or text presentation selector (U+FE0E, U+FE0F) right after a visible
 * character: ordinary emoji (`❤️`) carry one. Runs of selectors, other selectors (U+FE00–U+FE0D,
 * U+E0100–U+E01EF) and a selector at the start, after a space, a line break or an escape are shown
 * as escapes: a run of them can carry a hidden message.
 */
function isEmojiPresentation(code: number, previous: number | null): boolean {
  if (code !== 0xfe0e && code !== 0xfe0f) return false;
  return previous !== null && previous !== 0x0a && previous !== 0x09 && previous !== 0x20 && !isHidden(previous);
}

function keepsInValue(code: number, previous: number | null): boolean {
  return code === 0x0a || code === 0x09 || code === 0x20 || isEmojiPresentation(code, previous);
}

/** Calls `visit(start, end, code)` for each character of `text` that `pattern` matches and `keep` refuses; answers how many. */
function scan(
  text: string,
  pattern: RegExp,
  keep: (code: number, previous: number | null) => boolean,
  visit: ((start: number, end: number, code: number) => void) | null,
): number {
  let escaped = 0;
  // A fresh matcher per scan: a shared global pattern's position would leak between calls.
  const matcher = new RegExp(pattern.source, 'gu');
  for (let match = matcher.exec(text); match !== null; match = matcher.exec(text)) {
    const code = match[0].codePointAt(0) ?? 0;
    if (keep(code, codePointBefore(text, match.index))) continue;
    escaped += 1;
    visit?.(match.index, match.index + match[0].length, code);
  }
  return escaped;
}

function reveal(text: string, pattern: RegExp, keep: (code: number, previous: number | null) => boolean): RevealedText {
  let html = '';
  let last = 0;
  const escaped = scan(text, pattern, keep, (start, end, code) => {
    html += `${escapeHtml(text.slice(last, start))}${escapeSpan(code)}`;
    last = end;
  });
  html += escapeHtml(text.slice(last));
  return { html, escaped };
}

/**
 * Text from a held call (an argument value, a reason, a field name) as HTML with nothing hidden:
 * every invisible, direction-changing or otherwise unusual character becomes a visible escape such
 * as `\u{202E}` (a `span.escape` with an accessible name). `invoice\u202Efdp.exe` shows as
 * `invoice\u{202E}fdp.exe`, never as "invoiceexe.pdf". Line feeds and tabs stay (values keep their
 * lines). Text that merely looks like an escape (a typed backslash, `u`, braces) stays plain text:
 * only a real hidden character becomes an escape element, which is styled apart and counted.
 *
 * @example
 * revealText('pay \u202E0001$').escaped; // 1
 */
export function revealText(text: string): RevealedText {
  return reveal(text, HIDDEN, keepsInValue);
}

/**
 * A name from a held call (tool name, requester, run id, request id) as HTML: every character
 * outside printable ASCII becomes a visible escape, so a look-alike (`pr\u{0456}nt_note` with a
 * Cyrillic `і`) never passes for the name it imitates.
 *
 * @example
 * revealName('print_note').escaped; // 0
 */
export function revealName(name: string): RevealedText {
  return reveal(name, NOT_PLAIN_ASCII, () => false);
}

/** The warning shown on a value holding hidden characters. */
export const HIDDEN_CHARACTERS_WARNING = 'This value holds invisible or direction-changing characters, shown as \\u{…} escapes.';

/** The warning shown on a name holding characters outside plain ASCII. */
export const UNUSUAL_NAME_WARNING = 'This name holds characters outside plain ASCII, shown as \\u{…} escapes: it may imitate another name.';

/** True when `text` holds a character {@link revealText} shows as an escape (scans the whole text, whatever its length). */
export function holdsHiddenCharacters(text: string): boolean {
  return scan(text, HIDDEN, keepsInValue, null) > 0;
}

/**
 * A name as plain text (for a page title): every character outside printable ASCII as a `\u{…}` escape.
 *
 * @example
 * revealNameAsText('pr\u0456nt_note'); // 'pr\\u{0456}nt_note'
 */
export function revealNameAsText(name: string): string {
  return name.replace(NOT_PLAIN_ASCII, (character) => escapeCodePoint(character.codePointAt(0) ?? 0));
}

/**
 * Text from a held call or a decision (a reason) as plain text, for messages outside the page:
 * every character {@link revealText} shows as an escape becomes the same `\u{…}` text.
 *
 * @example
 * revealTextAsText('pay \u202E0001$'); // 'pay \\u{202E}0001$'
 */
export function revealTextAsText(text: string): string {
  let plain = '';
  let last = 0;
  scan(text, HIDDEN, keepsInValue, (start, end, code) => {
    plain += `${text.slice(last, start)}${escapeCodePoint(code)}`;
    last = end;
  });
  return plain + text.slice(last);
}
