/** The longest argument summary, in characters, before the ellipsis. */
export const SUMMARY_LENGTH = 120;

/** How much of one string value a summary quotes. */
const STRING_LENGTH = 40;

/** `text` cut to at most `length` UTF-16 units, never inside a surrogate pair, with `…` when cut. */
function clip(text: string, length: number): string {
  if (text.length <= length) return text;
  const last = text.charCodeAt(length - 1);
  return `${text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length)}…`;
}

function briefValue(value: unknown): string {
  if (typeof value === 'string') {
    // Quoted like JSON (line breaks and quotes escaped), cut first so a 1 MB value costs nothing.
    const quoted = JSON.stringify(clip(value, STRING_LENGTH));
    return value.length > STRING_LENGTH ? `${quoted.slice(0, -2)}…"` : quoted;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return value.length === 1 ? '[1 item]' : `[${value.length} items]`;
  if (typeof value === 'object') {
    const count = Object.keys(value).length;
    return count === 1 ? '{1 field}' : `{${count} fields}`;
  }
  return typeof value;
}

/**
 * A one-line summary of a held call's arguments for the pending list, so rows that look alike can
 * be told apart: `id: "n1" · copies: 2 · title: "race…"`, strings quoted and cut at 40 characters,
 * lists and objects counted, the whole cut at {@link SUMMARY_LENGTH} characters. It reads the
 * redacted copy, so a secret field shows as stored (`***REDACTED***`). Plain text: show it with
 * `revealText`, which makes hidden characters visible.
 *
 * @example
 * summarizeArguments({ id: 'n1', copies: 2 }); // 'id: "n1" · copies: 2'
 */
export function summarizeArguments(args: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  let length = 0;
  for (const [name, value] of Object.entries(args)) {
    const part = `${clip(name, STRING_LENGTH)}: ${briefValue(value)}`;
    parts.push(part);
    length += part.length + 3;
    if (length > SUMMARY_LENGTH) break;
  }
  if (parts.length === 0) return 'No arguments';
  return clip(parts.join(' · '), SUMMARY_LENGTH);
}
