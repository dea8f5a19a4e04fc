import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpAuthenticationError } from './mcp-authentication-error.js';
import type { McpIdentity } from './mcp-authenticator.js';

/** Options of {@link bearerAuthenticator}. */
export interface BearerAuthenticatorOptions {
  /**
   * The principal of a verified token. Default: `authInfo.extra.principal` when it is a string,
   * else `authInfo.clientId`.
   */
  readonly principal?: (authInfo: AuthInfo) => string | null;
}

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** OAuth errors of the SDK (and of any compatible verifier) that mean "this token is not acceptable". */
function isTokenRejection(error: unknown): boolean {
  const code = (error as { errorCode?: unknown } | null)?.errorCode;
  return code === 'invalid_token' || code === 'invalid_request';
}

function defaultPrincipal(authInfo: AuthInfo): string | null {
  const principal = authInfo.extra?.['principal'];
  if (typeof principal === 'string') return principal;
  return authInfo.clientId === '' ? null : authInfo.clientId;
}

/**
 * An `McpAuthenticator` for `Authorization: Bearer <token>`, verified by an SDK
 * `OAuthTokenVerifier` (the interface the SDK's `requireBearerAuth` middleware uses). No header →
 * anonymous; a malformed header, a token the verifier rejects (`InvalidTokenError`) or an expired
 * token (`expiresAt` in the past) → `McpAuthenticationError` (401). The token's scopes become the
 * context's scopes. Other verifier failures propagate (500), so an outage never grants access.
 *
 * @example
 * const authenticate = bearerAuthenticator({
 *   verifyAccessToken: async (token) => {
 *     const grant = tokens.get(token);
 *     if (grant === undefined) throw new InvalidTokenError('Unknown token');
 *     return { token, clientId: grant.principal, scopes: grant.scopes };
 *   },
 * });
 */
export function bearerAuthenticator(
  // The shape of the SDK's `OAuthTokenVerifier`, written out: the SDK's declaration of that interface
  // imports express types, which would make type-checking any program that uses this package need
  // `@types/express`.
  verifier: { verifyAccessToken(token: string): Promise<AuthInfo> },
  options: BearerAuthenticatorOptions = {},
): (request: IncomingMessage) => Promise<McpIdentity | null> {
  const principalOf = options.principal ?? defaultPrincipal;
  return async (request: IncomingMessage): Promise<McpIdentity | null> => {
    const header = request.headers.authorization;
    if (header === undefined) return null;
    const match = BEARER.exec(header);
    const token = match?.[1];
    if (token === undefined) throw new McpAuthenticationError('Invalid Authorization header format, expected "Bearer TOKEN".');
    let authInfo: AuthInfo;
    try {
      authInfo = await verifier.verifyAccessToken(token);
    } catch (error) {
      if (error instanceof McpAuthenticationError) throw error;
      if (isTokenRejection(error))
        throw new McpAuthenticationError(error instanceof Error ? error.message : 'Invalid token', { cause: error });
      throw error;
    }
    if (typeof authInfo.expiresAt === 'number' && (Number.isNaN(authInfo.expiresAt) || authInfo.expiresAt * 1000 < Date.now())) {
      throw new McpAuthenticationError('Token has expired.');
    }
    return { principal: principalOf(authInfo), scopes: Array.isArray(authInfo.scopes) ? authInfo.scopes : [] };
  };
}
