import type { IncomingHttpHeaders } from 'node:http';

const TEXT_TYPES: ReadonlySet<string> = new Set([
  'application/json',
  'application/ld+json',
  'application/x-ndjson',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-www-form-urlencoded',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/graphql',
  'application/sql',
  'image/svg+xml',
]);

/**
 * Why the HTTP tool does not return a response body as text, or null when it does: a
 * `Content-Encoding` other than `identity` (the tool asks for `identity` and never decompresses),
 * or a content type that is not text (`text/*`, JSON, XML, JavaScript, YAML, form data and their
 * `+json` / `+xml` kinds). A response without a content type is read as text.
 *
 * @example unreadableBodyReason({ 'content-type': 'image/png' }); // 'binary content (image/png) is not returned'
 */
export function unreadableBodyReason(headers: IncomingHttpHeaders): string | null {
  const encoding = (headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') return `the body is encoded (${encoding}) and is not decompressed`;
  const mime = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mime === '' || mime.startsWith('text/') || TEXT_TYPES.has(mime) || mime.endsWith('+json') || mime.endsWith('+xml')) return null;
  return `binary content (${mime}) is not returned`;
}
