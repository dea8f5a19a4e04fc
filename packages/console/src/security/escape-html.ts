const ENTITIES: Readonly<Record<string, string>> = Object.freeze({
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
});

/**
 * Escapes text for HTML element content and quoted attribute values: every `&`, `<`, `>`, `"` and
 * `'` becomes an entity, so text from a tool call (arguments, principals, reasons) is shown, never run.
 */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}
