/**
 * `text` cut to at most `max` characters for a message or a log line, with the original length
 * after the cut: `clipText('x'.repeat(5000), 10)` is `xxxxxxxxxx… (5000 characters)`. Text within
 * `max` comes back as it is. A cut never splits a surrogate pair. Names, keys and values a caller
 * sent go through it before they reach a log, so a 4 MB property name cannot make a 4 MB line.
 *
 * @example
 * clipText('short', 10); // 'short'
 */
export function clipText(text: string, max = 200): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}
