import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { bearerAuthenticator } from './bearer-authenticator.js';
import { McpAuthenticationError } from './mcp-authentication-error.js';
import type { McpIdentity } from './mcp-authenticator.js';

/**
 * An authenticator for a fixed set of bearer tokens (a demo, a CI agent, a small deployment): each
 * token maps to the identity it grants. No header → anonymous; an unknown token → 401.
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
  const byToken = new Map(Object.entries(grants).filter(([token]) => token !== ''));
  return bearerAuthenticator(
    {
      verifyAccessToken: async (token): Promise<AuthInfo> => {
        const identity = byToken.get(token);
        if (identity === undefined) throw new McpAuthenticationError('Unknown token');
        return { token, clientId: identity.principal ?? '', scopes: [...identity.scopes], extra: { principal: identity.principal } };
      },
    },
  );
}
