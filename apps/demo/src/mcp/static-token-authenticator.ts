import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { McpAuthenticationError, type McpAuthenticator, type McpIdentity } from '@milpa/mcp';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * An `McpAuthenticator` for one shared bearer token, enough for a local demo: a request with
 * `Authorization: Bearer <token>` is `identity`; a request without the header is anonymous (and
 * the `mcp` channel policy denies its calls); a malformed header or a wrong token is answered 401.
 * Tokens are compared in constant time.
 *
 * @example
 * serveHttp(registry, { authenticate: staticTokenAuthenticator(token, { principal: 'agent:demo', scopes: ['notes:read'] }) });
 */
export function staticTokenAuthenticator(token: string, identity: McpIdentity): McpAuthenticator {
  const expected = digest(token);
  return (request: IncomingMessage): McpIdentity | null => {
    const header = request.headers.authorization;
    if (header === undefined) return null;
    const presented = BEARER.exec(header)?.[1];
    if (presented === undefined) throw new McpAuthenticationError('Invalid Authorization header format, expected "Bearer TOKEN".');
    if (!timingSafeEqual(digest(presented), expected)) throw new McpAuthenticationError('Invalid bearer token.');
    return identity;
  };
}
