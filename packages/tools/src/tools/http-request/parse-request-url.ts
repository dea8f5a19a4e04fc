import { ToolError } from '../../lifecycle/tool-error.js';

/** The longest URL the HTTP tool accepts, in characters. */
export const MAX_URL_LENGTH = 2048;

/**
 * Parses a URL the way the HTTP tool reaches it: WHATWG URL parsing (which rewrites decimal,
 * octal, hexadecimal and shortened IPv4 forms such as `2130706433`, `0177.0.0.1`, `0x7f.1` to
 * dotted decimal, so the address checks always see the real address), `http:` or `https:` only, no
 * credentials. The fragment is dropped: it is never sent.
 *
 * @throws ToolError `INVALID_URL` for an unparseable, over-long or non-HTTP URL;
 *   `URL_CREDENTIALS_REFUSED` for a URL carrying `user:password@`.
 * @example parseRequestUrl('http://0177.0.0.1/').hostname; // '127.0.0.1'
 */
export function parseRequestUrl(raw: string, base?: URL): URL {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_URL_LENGTH) {
    throw new ToolError('INVALID_URL', `url must be a string of 1 to ${MAX_URL_LENGTH} characters.`);
  }
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new ToolError('INVALID_URL', `${JSON.stringify(raw)} is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError('INVALID_URL', `Only http: and https: URLs are allowed, got ${url.protocol}.`);
  }
  if (url.username !== '' || url.password !== '') {
    // Never echo the URL: it holds the credentials.
    throw new ToolError(
      'URL_CREDENTIALS_REFUSED',
      'URLs with credentials (user:password@) are refused; send an Authorization header instead.',
    );
  }
  if (url.hostname === '') throw new ToolError('INVALID_URL', 'The URL has no host.');
  url.hash = '';
  return url;
}
