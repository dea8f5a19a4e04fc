import { ToolContext } from '@milpa/core';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';

function readString(extra: Record<string, unknown> | undefined, key: string): string | null {
  const value = extra?.[key];
  return typeof value === 'string' ? value : null;
}

/**
 * The `ToolContext` of an MCP call from its credentials. The principal is `authInfo.extra.principal`
 * when present (a string, or null for anonymous), else the token's `clientId`; the scopes are the
 * token's scopes, exactly. Without credentials the caller is anonymous (`principal: null`, no
 * scopes), which the `mcp` channel policy denies with its require_auth message.
 */
export function contextFromAuthInfo(requestId: string, authInfo: AuthInfo | undefined): ToolContext {
  if (authInfo === undefined) return ToolContext.mcp(requestId, null, []);
  const extra = authInfo.extra;
  const principal =
    extra !== undefined && Object.hasOwn(extra, 'principal')
      ? readString(extra, 'principal')
      : authInfo.clientId === ''
        ? null
        : authInfo.clientId;
  return new ToolContext({
    principal,
    channel: 'mcp',
    scopes: Array.isArray(authInfo.scopes) ? authInfo.scopes : [],
    requestId,
    ip: readString(extra, 'ip'),
    userAgent: readString(extra, 'userAgent'),
  });
}
