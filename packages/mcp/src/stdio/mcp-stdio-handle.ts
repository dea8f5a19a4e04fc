import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** A running stdio MCP server, as returned by `serveStdio`. */
export interface McpStdioHandle {
  /** The underlying SDK server. */
  readonly server: Server;
  /** Settles when the connection closes (stdin ended, or `close()`). */
  readonly closed: Promise<void>;
  /** Closes the connection, aborting running handlers. */
  close(): Promise<void>;
}
