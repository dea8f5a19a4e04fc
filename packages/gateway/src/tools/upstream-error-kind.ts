/**
 * Why a forwarded call failed, in `meta.upstream_error` of its `ToolResult` (with the upstream's
 * name in `meta.upstream`):
 * - `unavailable`: the upstream is not connected (starting or restarting); nothing was sent.
 *   `meta.retry_after_seconds` says when the next connection attempt is.
 * - `disconnected`: the connection was lost during the call; whether the tool ran is unknown.
 * - `timeout`: the upstream did not answer in time (code `TIMEOUT`); the call was cancelled on it.
 * - `cancelled`: the caller aborted; the call was cancelled on the upstream.
 * - `protocol_error`: the upstream answered with a JSON-RPC error.
 * - `tool_error`: the upstream's tool reported a failure (`isError: true`).
 * - `withdrawn`: the upstream no longer offers the tool.
 */
export type UpstreamErrorKind = 'unavailable' | 'disconnected' | 'timeout' | 'cancelled' | 'protocol_error' | 'tool_error' | 'withdrawn';

/** The `meta` key of a gateway tool's `ToolResult` that holds its {@link UpstreamErrorKind}. */
export const UPSTREAM_ERROR_META_KEY = 'upstream_error';
