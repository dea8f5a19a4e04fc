// @milpa/mcp: serves a Milpa tool registry over the Model Context Protocol (stdio and Streamable HTTP)
// on the official SDK; every tools/call runs the registry's governed pipeline.

export { createMcpServer } from './server/create-mcp-server.js';
export type { McpServerOptions, McpConfirmationMode } from './server/mcp-server-options.js';
export type { McpCallInfo } from './server/mcp-call-info.js';
export type { McpResultRenderer } from './results/mcp-result-renderer.js';
export { MCP_ERROR_META_KEY, type McpToolErrorCode, type McpToolErrorContent } from './results/mcp-tool-error-content.js';
export { MCP_IDEMPOTENCY_KEY_META_KEY, MCP_IDEMPOTENT_REPLAY_META_KEY, MCP_REASON_META_KEY } from './server/tool-call-handler.js';

export { serveStdio } from './stdio/serve-stdio.js';
export type { StdioServeOptions } from './stdio/stdio-serve-options.js';
export type { McpStdioHandle } from './stdio/mcp-stdio-handle.js';

export { serveHttp } from './http/serve-http.js';
export type { HttpServeOptions, ResumableStreamsOptions } from './http/http-serve-options.js';
export type { ProtectedResourceOptions } from './http/protected-resource-options.js';
export type { McpHttpHandle } from './http/mcp-http-handle.js';
export type { McpAuthenticator, McpIdentity } from './http/mcp-authenticator.js';
export { bearerAuthenticator, type BearerAuthenticatorOptions } from './http/bearer-authenticator.js';
export { staticTokenAuthenticator } from './http/static-token-authenticator.js';
export { McpAuthenticationError } from './http/mcp-authentication-error.js';
export { BoundedEventStore, ReplayBudget, type BoundedEventStoreOptions } from './http/bounded-event-store.js';
export { closeMcpSseStream } from './caller/close-mcp-sse-stream.js';
