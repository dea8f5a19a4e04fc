import type { IncomingMessage } from 'node:http';

/** Who an authenticated HTTP request comes from, as Milpa's pipeline sees it. */
export interface McpIdentity {
  /** The principal (`user:42`, `agent:ci`); null for an anonymous caller. */
  readonly principal: string | null;
  /** The scopes the credentials grant, exactly (no wildcard is added). */
  readonly scopes: readonly string[];
}

/**
 * Authenticates one HTTP request to the MCP endpoint. Return the caller's identity; return null
 * when the request carries no credentials (the caller is anonymous, and the `mcp` channel policy
 * denies its tool calls); throw `McpAuthenticationError` for credentials that are presented but
 * invalid (answered `401`). Any other throw is answered `500`. Either way nothing runs.
 *
 * @example
 * const authenticate: McpAuthenticator = (request) =>
 *   request.headers['x-api-key'] === process.env.API_KEY ? { principal: 'ops', scopes: ['notes:read'] } : null;
 */
export type McpAuthenticator = (request: IncomingMessage) => McpIdentity | null | Promise<McpIdentity | null>;
