// Reads a form out of a console page the way a browser submits it, for raw HTTP tests.

/** Decodes the character references the console's escapeHtml writes (and numeric ones). */
export function decodeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_match, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number.parseInt(lower.slice(1), 10));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[lower]!;
  });
}

function attribute(tag: string, name: string): string | null {
  const match = new RegExp(`\\s${name}(?:="([^"]*)")?(?=[\\s>/]|$)`, 'i').exec(tag);
  if (match === null) return null;
  return decodeHtml(match[1] ?? '');
}

/** The HTML parser's newline handling for text: CR LF and lone CR become LF. */
function parsedText(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/**
 * The successful controls of the form in `html` whose action ends with `actionSuffix`, in order, as
 * a browser would post them unchanged: hidden and text inputs with their values, checked boxes, the
 * selected option of each select (else its first), textarea content (one leading newline dropped,
 * line breaks sent as CRLF). Buttons are left out.
 */
export function formFields(html: string, actionSuffix: string): [string, string][] {
  const forms = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)];
  const form = forms.find((match) => (attribute(match[1]!, 'action') ?? '').endsWith(actionSuffix));
  if (form === undefined) throw new Error(`no form posting to …${actionSuffix}`);
  const fields: [string, string][] = [];
  const controls = /<(input)\b([^>]*)>|<(select)\b([^>]*)>([\s\S]*?)<\/select>|<(textarea)\b([^>]*)>([\s\S]*?)<\/textarea>/gi;
  for (const match of form[2]!.matchAll(controls)) {
    if (match[1] !== undefined) {
      const tag = match[2]!;
      const name = attribute(tag, 'name');
      const type = (attribute(tag, 'type') ?? 'text').toLowerCase();
      if (name === null || attribute(tag, 'disabled') !== null || ['submit', 'button', 'reset', 'image', 'file'].includes(type)) continue;
      if ((type === 'checkbox' || type === 'radio') && attribute(tag, 'checked') === null) continue;
      const value = attribute(tag, 'value') ?? (type === 'checkbox' || type === 'radio' ? 'on' : '');
      // Browsers strip line breaks from a one-line input's value.
      fields.push([name, type === 'hidden' ? value : value.replace(/[\r\n]/g, '')]);
    } else if (match[3] !== undefined) {
      const name = attribute(match[4]!, 'name');
      if (name === null) continue;
      const options = [...match[5]!.matchAll(/<option\b([^>]*)>([\s\S]*?)<\/option>/gi)];
      const chosen = options.find((option) => attribute(option[1]!, 'selected') !== null) ?? options[0];
      if (chosen !== undefined) fields.push([name, attribute(chosen[1]!, 'value') ?? decodeHtml(chosen[2]!)]);
    } else {
      const name = attribute(match[7]!, 'name');
      if (name === null) continue;
      const content = decodeHtml(parsedText(match[8]!).replace(/^\n/, ''));
      fields.push([name, content.replace(/\n/g, '\r\n')]);
    }
  }
  return fields;
}

/** `fields` as an urlencoded body. */
export function encodeForm(fields: readonly [string, string][]): string {
  return new URLSearchParams(fields).toString();
}
