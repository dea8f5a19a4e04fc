/** A benchmark HTTP server running in this process. */
export interface RunningHttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  /** Closes every session and the listener. */
  readonly close: () => Promise<void>;
}
