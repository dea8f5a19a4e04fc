/** A running Streamable HTTP MCP server, as returned by `serveHttp`. */
export interface McpHttpHandle {
  /** The endpoint URL, e.g. `http://127.0.0.1:53124/mcp`. */
  readonly url: string;
  /** The port actually bound (useful with `port: 0`). */
  readonly port: number;
  /** The number of open MCP sessions. */
  readonly sessionCount: number;
  /** The number of open TCP connections (refused ones are not counted). */
  readonly connectionCount: number;
  /** Bytes of resumable-stream events kept by all sessions together (bounded by `resumableStreams.maxBytesTotal`). */
  readonly replayBytes: number;
  /**
   * Tells every connected client that the tool list changed (`notifications/tools/list_changed`),
   * e.g. after registering tools at run time; clients then ask `tools/list` again. A client hears
   * it on its standing stream (the GET stream the SDK client opens after connecting). Never rejects.
   */
  sendToolListChanged(): Promise<void>;
  /** Closes every session (aborting running handlers) and stops listening. */
  close(): Promise<void>;
}
