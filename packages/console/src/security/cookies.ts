import type { IncomingMessage } from 'node:http';

/** The cookies of a request by name (the first of duplicates wins); values are not decoded. */
export function readCookies(request: IncomingMessage): ReadonlyMap<string, string> {
  const cookies = new Map<string, string>();
  const header = request.headers.cookie;
  if (typeof header !== 'string') return cookies;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index <= 0) continue;
    const name = part.slice(0, index).trim();
    if (name !== '' && !cookies.has(name)) cookies.set(name, part.slice(index + 1).trim());
  }
  return cookies;
}

/** Options of {@link serializeCookie}. */
export interface CookieAttributes {
  /** The cookie's path. */
  readonly path: string;
  /** Adds `Secure` (HTTPS only). */
  readonly secure: boolean;
  /** Seconds until it expires; omitted for a session cookie, 0 to delete it. */
  readonly maxAgeSeconds?: number;
}

/** A `Set-Cookie` value that is always `HttpOnly` and `SameSite=Strict`. */
export function serializeCookie(name: string, value: string, attributes: CookieAttributes): string {
  const parts = [`${name}=${value}`, `Path=${attributes.path}`, 'HttpOnly', 'SameSite=Strict'];
  if (attributes.secure) parts.push('Secure');
  if (attributes.maxAgeSeconds !== undefined) parts.push(`Max-Age=${attributes.maxAgeSeconds}`);
  return parts.join('; ');
}
