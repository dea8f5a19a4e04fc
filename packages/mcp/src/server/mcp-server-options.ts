import type { ToolContext } from '@milpa/core';
import type { McpResultRenderer } from '../results/mcp-result-renderer.js';
import type { McpCallInfo } from './mcp-call-info.js';

/** How confirmations are obtained: by asking the person (when the client can) or by the two-call token flow. */
export type McpConfirmationMode = 'elicit' | 'token';

/** Options of {@link createMcpServer} (and of `serveStdio` / `serveHttp`, which pass them on). */
export interface McpServerOptions {
  /** The server name reported at `initialize`. Default `'milpa'`. */
  readonly name?: string;
  /** The server version reported at `initialize`. Default the version of `@milpa/mcp`. */
  readonly version?: string;
  /** Instructions for the client's model, sent at `initialize`. */
  readonly instructions?: string;
  /** Renders successful results as text. Default a `DefaultRenderer` from `@milpa/tool-runtime`. */
  readonly renderer?: McpResultRenderer;
  /**
   * Builds the `ToolContext` of each call. Default: from the request's credentials
   * (`authInfo.extra.principal` or `clientId`, and the token's scopes), or anonymous without any.
   */
  readonly context?: (call: McpCallInfo) => ToolContext;
  /**
   * `'elicit'` (default): a tool that needs confirmation asks the person through an elicitation
   * form when the client supports forms, and falls back to the token flow otherwise. `'token'`:
   * always return the two-call token flow.
   */
  readonly confirmation?: McpConfirmationMode;
}
