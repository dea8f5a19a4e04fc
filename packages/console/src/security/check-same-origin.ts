import type { IncomingMessage } from 'node:http';

/**
 * Why a state-changing request was refused as cross-site, or null when it may proceed. Browsers
 * send `Sec-Fetch-Site` and `Origin` on every form post: anything but `same-origin`, or an origin
 * other than the console's own (or one of `allowedOrigins`), is refused. A request with neither
 * header (a script or an old client) falls through to the CSRF token check.
 */
export function checkSameOrigin(request: IncomingMessage, allowedOrigins: ReadonlySet<string>): string | null {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin') {
    return `Refused: the form was sent from another site (Sec-Fetch-Site: ${site}).`;
  }
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return null;
  if (allowedOrigins.has(origin)) return null;
  const host = request.headers.host;
  const encrypted = (request.socket as { encrypted?: boolean }).encrypted === true;
  const own = typeof host === 'string' ? `${encrypted ? 'https' : 'http'}://${host}` : null;
  if (own !== null && origin === own) return null;
  return 'Refused: the form was sent from another origin.';
}
