import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';

/** What is known about one `tools/call` when its `ToolContext` is built. */
export interface McpCallInfo {
  /** A fresh Milpa request id (32 hex characters) for this call. */
  readonly requestId: string;
  /** The tool being called; null when the context is built to answer `tools/list`. */
  readonly toolName: string | null;
  /** The JSON-RPC id of the request, unique only within its connection. */
  readonly rpcId: string | number;
  /** The validated credentials of the HTTP request (from `serveHttp` or the SDK's bearer middleware), if any. */
  readonly authInfo?: AuthInfo;
  /** The transport's session id, if any. */
  readonly sessionId?: string;
}
