import { ToolError } from '../../lifecycle/tool-error.js';

/** Bounds on caller-supplied request headers. */
export const REQUEST_HEADER_LIMITS = Object.freeze({
  /** The most headers one request may carry. */
  maxHeaders: 32,
  /** The longest header name, in characters. */
  maxNameLength: 64,
  /** The longest header value, in characters. */
  maxValueLength: 4096,
  /** The most characters of all names and values together. */
  maxTotalLength: 8192,
});

/**
 * Header names a caller may not set, each for a reason: the tool owns the connection and the
 * message framing (hop-by-hop and framing headers could smuggle a second request or hijack the
 * connection), `Host` must match the checked host (a public address with `Host: internal` reaches
 * internal virtual hosts behind shared front ends), forwarding headers would let the caller spoof
 * its origin to proxies that trust them, and method overrides would escape the GET/POST limit.
 * Every name starting with `proxy-` is refused as well.
 */
export const REFUSED_REQUEST_HEADERS: readonly string[] = Object.freeze([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'expect',
  'accept-encoding',
  'http2-settings',
  'forwarded',
  'via',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-server',
  'x-real-ip',
  'x-http-method-override',
  'x-http-method',
  'x-method-override',
]);

const REFUSED: ReadonlySet<string> = new Set(REFUSED_REQUEST_HEADERS);
// RFC 9110 token characters.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Visible ASCII, space and tab: no CR, LF, NUL or other control characters, nothing Node might re-encode.
const VALUE = /^[\t\x20-\x7e]*$/;

/**
 * Checks caller-supplied request headers and returns them with lower-case names. Refuses names
 * that are not HTTP tokens, values with control or non-ASCII characters (no header injection),
 * the names of {@link REFUSED_REQUEST_HEADERS}, `proxy-*`, a name given twice in different case,
 * and anything beyond {@link REQUEST_HEADER_LIMITS}.
 *
 * @throws ToolError `INVALID_HEADER` or `HEADER_NOT_ALLOWED`, naming the header.
 * @example checkRequestHeaders({ Accept: 'application/json' }); // { accept: 'application/json' }
 */
export function checkRequestHeaders(headers: unknown): Record<string, string> {
  if (headers === undefined || headers === null) return {};
  if (typeof headers !== 'object' || Array.isArray(headers)) {
    throw new ToolError('INVALID_HEADER', 'headers must be an object of header names to string values.');
  }
  const entries = Object.entries(headers as Record<string, unknown>);
  if (entries.length > REQUEST_HEADER_LIMITS.maxHeaders) {
    throw new ToolError('INVALID_HEADER', `At most ${REQUEST_HEADER_LIMITS.maxHeaders} headers are allowed, got ${entries.length}.`);
  }
  // No prototype: a header named __proto__ must stay a plain entry.
  const checked: Record<string, string> = Object.create(null) as Record<string, string>;
  let total = 0;
  for (const [name, value] of entries) {
    if (name.length > REQUEST_HEADER_LIMITS.maxNameLength || !TOKEN.test(name)) {
      throw new ToolError(
        'INVALID_HEADER',
        `Header name ${JSON.stringify(name.slice(0, 80))} is not a valid HTTP header name ` +
          `of at most ${REQUEST_HEADER_LIMITS.maxNameLength} characters.`,
      );
    }
    const lower = name.toLowerCase();
    if (REFUSED.has(lower) || lower.startsWith('proxy-')) {
      throw new ToolError(
        'HEADER_NOT_ALLOWED',
        `Header '${name}' may not be set: the tool controls the host, the connection and the message framing.`,
        { details: { header: name } },
      );
    }
    if (typeof value !== 'string' || value.length > REQUEST_HEADER_LIMITS.maxValueLength || !VALUE.test(value)) {
      throw new ToolError(
        'INVALID_HEADER',
        `Header '${name}' must be a string of at most ${REQUEST_HEADER_LIMITS.maxValueLength} printable ASCII characters (no line breaks).`,
        { details: { header: name } },
      );
    }
    if (Object.hasOwn(checked, lower)) {
      throw new ToolError('INVALID_HEADER', `Header '${name}' is given more than once.`, { details: { header: name } });
    }
    total += name.length + value.length;
    if (total > REQUEST_HEADER_LIMITS.maxTotalLength) {
      throw new ToolError('INVALID_HEADER', `Headers may total at most ${REQUEST_HEADER_LIMITS.maxTotalLength} characters.`);
    }
    checked[lower] = value;
  }
  return checked;
}
