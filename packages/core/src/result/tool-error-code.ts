/**
 * The closed set of error codes a `ToolResult` carries in `meta.code`. Each value equals its key.
 *
 * The codes the pipeline and handlers report, among them `CONFLICT` for a state conflict (such as
 * resolving an already resolved verification request).
 */
export const ToolErrorCode = Object.freeze({
  /** No tool of that name is registered. */
  TOOL_NOT_FOUND: 'TOOL_NOT_FOUND',
  /** The arguments do not match the tool's input schema. */
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  /** Something the call refers to does not exist (e.g. an unknown request id). */
  NOT_FOUND: 'NOT_FOUND',
  /** The caller is not authenticated. */
  UNAUTHORIZED: 'UNAUTHORIZED',
  /** The caller is authenticated but not allowed (scope, channel policy or rule). */
  FORBIDDEN: 'FORBIDDEN',
  /** The call needs a confirmation round trip first. */
  CONFIRMATION_REQUIRED: 'CONFIRMATION_REQUIRED',
  /** The tool did not finish before its deadline. */
  TIMEOUT: 'TIMEOUT',
  /** The handler or a pipeline stage failed unexpectedly. */
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  /** The caller's rate budget for the tool is spent. */
  RATE_LIMITED: 'RATE_LIMITED',
  /** The call conflicts with the current state (e.g. an already resolved request). */
  CONFLICT: 'CONFLICT',
  /** An approval gate refused the call, or an approver rejected it; nothing ran. */
  APPROVAL_DENIED: 'APPROVAL_DENIED',
  /** The call is held until someone else approves it; resume it with the `approval_id` returned. */
  APPROVAL_PENDING: 'APPROVAL_PENDING',
  /** The `approval_id` presented cannot resume this call (unknown, used, expired, or for another caller, tool, run or arguments). */
  APPROVAL_INVALID: 'APPROVAL_INVALID',
  /**
   * A store the call depends on (confirmation tokens, rate limits, run history, idempotency keys)
   * failed or could not be reached; the call was refused and nothing ran. `meta.store` names it.
   */
  STORE_UNAVAILABLE: 'STORE_UNAVAILABLE',
  /**
   * The service the tool forwards its calls to (e.g. an upstream MCP server) cannot be reached right
   * now; the call was not forwarded and nothing ran. `retry_after_seconds` says when to try again.
   */
  UPSTREAM_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
} as const);

/** One of the {@link ToolErrorCode} values. */
export type ToolErrorCode = (typeof ToolErrorCode)[keyof typeof ToolErrorCode];

const CODES: ReadonlySet<string> = new Set(Object.values(ToolErrorCode));

/** True when `value` is one of the {@link ToolErrorCode} strings. */
export function isToolErrorCode(value: unknown): value is ToolErrorCode {
  return typeof value === 'string' && CODES.has(value);
}
