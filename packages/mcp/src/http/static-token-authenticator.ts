import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { bearerAuthenticator } from './bearer-authenticator.js';
import { McpAuthenticationError } from './mcp-authentication-error.js';
import type { McpIdentity } from './mcp-authenticator.js';

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/**
 * An authenticator for a fixed set of bearer tokens (a demo, a CI agent, a small deployment): each
 * token maps to the identity it grants. No header → anonymous; an unknown token → 401. Tokens are
 * compared in constant time (their SHA-256 digests, against every grant); an empty token never matches.
 *
 * @example
 * await serveHttp(registry, {
 *   port: 3000,
 *   authenticate: staticTokenAuthenticator({ [process.env.MCP_TOKEN!]: { principal: 'agent:ci', scopes: ['notes:read'] } }),
 * });
 */
export function staticTokenAuthenticator(
  grants: Readonly<Record<string, McpIdentity>>,
): (request: IncomingMessage) => Promise<McpIdentity | null> {
  const known = Object.entries(grants)
    .filter(([token]) => token !== '')
    .map(([token, identity]) => ({ digest: digest(token), identity }));
  return bearerAuthenticator({
    verifyAccessToken: async (token): Promise<AuthInfo> => {
      const presented = digest(token);
      let identity: McpIdentity | undefined;
      // No early exit: the time taken does not depend on which grant (if any) matched.
      for (const grant of known) {
        if (timingSafeEqual(grant.digest, presented)) identity = grant.identity;
      }
      if (identity === undefined) throw new McpAuthenticationError('Unknown token');
      return { token, clientId: identity.principal ?? '', scopes: [...identity.scopes], extra: { principal: identity.principal } };
    },
  });
}
