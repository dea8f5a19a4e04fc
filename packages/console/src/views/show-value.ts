import { escapeHtml } from '../security/escape-html.js';
import { HIDDEN_CHARACTERS_WARNING, holdsHiddenCharacters, revealText } from './reveal-text.js';
import { sha256Hex, valueText } from './value-text.js';

/** Values whose text is longer than this many UTF-16 units are shown collapsed. */
export const LONG_VALUE_LENGTH = 2000;

/** How much of a collapsed value the page holds: a short preview, and the start shown on expanding. */
const PREVIEW_LENGTH = 160;
const START_LENGTH = 2000;
const DIGEST_SHOWN = 12;

const COUNT = new Intl.NumberFormat('en');

/** `text` cut to at most `length` UTF-16 units, never inside a surrogate pair. */
function startOf(text: string, length: number): string {
  if (text.length <= length) return text;
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

/** Surrogate pairs: each is one character in two UTF-16 units. */
const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

function countCodePoints(text: string): number {
  let pairs = 0;
  // A native scan: a megabyte without pairs costs about a millisecond.
  for (const _pair of text.matchAll(SURROGATE_PAIR)) pairs += 1;
  return text.length - pairs;
}

function warning(hidden: boolean): string {
  return hidden ? `<p class="warning">${escapeHtml(HIDDEN_CHARACTERS_WARNING)}</p>` : '';
}

function renderLong(text: string, kind: 'text' | 'JSON', fullValueHref: string | null): string {
  const digest = sha256Hex(text);
  const characters = countCodePoints(text);
  const bytes = Buffer.byteLength(text, 'utf8');
  const facts =
    `<p class="value-facts">Long ${kind === 'text' ? 'text' : 'JSON value'}: ${COUNT.format(characters)} characters, ` +
    `${COUNT.format(bytes)} bytes, SHA-256 <code class="digest" title="${digest}" data-sha256="${digest}">` +
    `${digest.slice(0, DIGEST_SHOWN)}…</code></p>`;
  const preview = `<p class="value preview">${revealText(startOf(text, PREVIEW_LENGTH)).html}…</p>`;
  // Without an address for the whole value (an approved change, bounded by the form size), the
  // expanded view holds all of it; otherwise only its start, and the link serves the rest.
  const shown = fullValueHref === null ? text : startOf(text, START_LENGTH);
  const rest = text.length - shown.length;
  const expanded =
    `<details><summary>${fullValueHref === null ? 'Show the whole value' : `Show the first ${COUNT.format(shown.length)} characters`}` +
    `</summary><pre class="value">${revealText(shown).html}${rest > 0 ? '…' : ''}</pre></details>`;
  const link =
    fullValueHref === null
      ? ''
      : `<p><a href="${escapeHtml(fullValueHref)}">Open the whole value</a> (plain text, ${COUNT.format(bytes)} bytes)</p>`;
  return `<div class="long-value">${warning(holdsHiddenCharacters(text))}${facts}${preview}${expanded}${link}</div>`;
}

/**
 * An argument value from a held call as HTML. Every text goes through {@link revealText}, so
 * invisible and direction-changing characters show as `\u{…}` escapes, with a warning on the
 * value. A value longer than {@link LONG_VALUE_LENGTH} (a string, or another value's JSON) is shown
 * collapsed: its length, its SHA-256 (of the UTF-8 string, or of its canonical JSON), a preview of
 * its start, the first characters on expanding, and a link to `fullValueHref` serving it whole —
 * so a 1 MB argument makes a page of a few kilobytes.
 *
 * @example
 * showValue('a <b>', null); // 'a &lt;b&gt;' (the arguments table keeps its line breaks)
 */
export function showValue(value: unknown, fullValueHref: string | null): string {
  if (typeof value === 'string') {
    if (value.length > LONG_VALUE_LENGTH) return renderLong(value, 'text', fullValueHref);
    const shown = revealText(value);
    return `${warning(shown.escaped > 0)}${shown.html}`;
  }
  const pretty = JSON.stringify(value, null, 1) ?? String(value);
  if (pretty.length > LONG_VALUE_LENGTH) return renderLong(valueText(value), 'JSON', fullValueHref);
  const shown = revealText(pretty);
  return `${warning(shown.escaped > 0)}<code>${shown.html}</code>`;
}
