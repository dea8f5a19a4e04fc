/** One MCP session of the load generator: a client that makes the benchmark call, one at a time. */
export interface McpLoadSession {
  /** One `tools/call` of the benchmark tool with valid arguments; rejects unless it returned the expected text. */
  readonly call: () => Promise<void>;
  /** Ends the session (HTTP DELETE for raw sessions, `client.close()` for SDK clients). */
  readonly close: () => Promise<void>;
}
