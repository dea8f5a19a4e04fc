import type { ToolCaller } from '@milpa/core';

/**
 * The key under which an MCP caller offers to close its SSE stream. `Symbol.for`, so a caller made
 * by one copy of `@milpa/mcp` is recognised by the helper of another (as `MilpaError` is by its brand).
 */
export const CLOSE_SSE_STREAM: unique symbol = Symbol.for('milpa.mcp.closeSseStream');

/** A caller that can close the SSE stream of its request. */
interface SseStreamCloser {
  [CLOSE_SSE_STREAM](): boolean;
}

function isSseStreamCloser(caller: unknown): caller is SseStreamCloser {
  return typeof caller === 'object' && caller !== null && typeof (caller as Partial<SseStreamCloser>)[CLOSE_SSE_STREAM] === 'function';
}

/**
 * Closes the Streamable HTTP SSE stream that carries the running tool call, so that its client
 * switches to polling (SEP-1699): the client reconnects with `Last-Event-ID` after the server's
 * retry interval, and receives everything sent meanwhile — progress, log messages, the result —
 * from the session's event store. The call itself keeps running. Use it in a long call to free the
 * connection while the work goes on.
 *
 * Returns true when the stream was closed; false, doing nothing, when the call cannot resume: it did
 * not come over MCP (`caller` is not an MCP caller), came over stdio, the server keeps no event
 * store (`resumableStreams: false`), the client's protocol version predates resumable streams
 * (before 2025-11-25), or the call was already aborted.
 *
 * @example
 * handler: async (args, { caller, signal }) => {
 *   closeMcpSseStream(caller); // the client polls; the result still reaches it
 *   return await runLongReport(args, signal);
 * }
 */
export function closeMcpSseStream(caller: ToolCaller): boolean {
  return isSseStreamCloser(caller) ? caller[CLOSE_SSE_STREAM]() === true : false;
}
