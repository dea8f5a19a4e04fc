/**
 * How a call ended, as recorded by the audit (every terminal path is audited, refusals included).
 *
 * - `ok` / `error`: the tool ran (or a cache answered) and returned success / an error result.
 * - `exception`: the handler threw.
 * - `validation_failed`, `auth_denied`, `rate_limited`: a gate refused the call.
 * - `invocation_denied`: an invocation rule (or target resolution) refused this call; the record
 *   carries the rule and reason code and, unlike the others, no arguments.
 * - `not_found`: no tool by that name.
 * - `refused`: a host stage refused the call (the record carries its code and reason).
 * - `plan`: a plan-mode dry run returned the plan.
 * - `confirmation_requested`: a confirmation token was minted instead of executing.
 * - `invalid_token`: an unknown, used, expired or foreign confirmation token was presented.
 * - `vetoed`: a `tool.executing` listener stopped the call.
 * - `internal_error`: a runtime component (store, limiter, dispatcher) failed.
 * - `approval_denied`: an approval gate refused the call (or failed), or an approver rejected it.
 * - `approval_pending`: an approval gate held the call until someone else decides.
 * - `approval_invalid`: an approval id that cannot resume this call was presented.
 */
export type AuditOutcome =
  | 'ok'
  | 'error'
  | 'exception'
  | 'validation_failed'
  | 'auth_denied'
  | 'invocation_denied'
  | 'rate_limited'
  | 'not_found'
  | 'refused'
  | 'plan'
  | 'confirmation_requested'
  | 'invalid_token'
  | 'vetoed'
  | 'internal_error'
  | 'approval_denied'
  | 'approval_pending'
  | 'approval_invalid'
  | 'replayed';

/**
 * The structured audit entry of one call, passed to the logger as `{ audit: record }` next to the
 * human-readable `[ToolAudit] …` message. Wire keys are snake_case; secrets are already redacted.
 *
 * It carries no timestamp: the logger stamps the line it writes (pino's `time`, winston's and
 * bunyan's too), so a second, ISO-formatted copy would only cost time on every call. With a logger
 * that writes no time of its own (`console`), add one there.
 */
export interface ToolAuditRecord {
  /** How the call ended. */
  readonly outcome: AuditOutcome;
  /** The error code (`FORBIDDEN`, `RATE_LIMITED`, `EXCEPTION`, a tool's own code…), or null. */
  readonly code: string | null;
  /** The tool's name, as called. */
  readonly tool: string;
  /** The call's correlation id. */
  readonly request_id: string;
  /** The channel the call came in on. */
  readonly channel: string;
  /** The calling principal, or null for an anonymous caller. */
  readonly principal: string | null;
  /** The caller's IP address, when the context carries one (it is never printed in the message). */
  readonly ip: string | null;
  /** Milliseconds from the start of the call to this outcome (whole milliseconds). */
  readonly took_ms: number;
  /** The call's arguments with secrets redacted and `_ctx` removed; null when not recorded. */
  readonly args: unknown;
  /** True when a `tool.executing` listener (a cache) answered instead of the handler. */
  readonly cache_served: boolean;
  /** Why the call was refused or failed (scrubbed of the call's secret values), when there is one. */
  readonly reason?: string;
  /** The identifier of the rule that refused the call (null: target resolution did), on `invocation_denied`. */
  readonly rule?: string | null;
  /** The run the call belongs to, on `invocation_denied`. */
  readonly run_id?: string | null;
  /** The validation messages (scrubbed), on `validation_failed`. */
  readonly errors?: readonly string[];
  /**
   * The length of the result data when it is a string, else null; on executed calls. For a result
   * the cap cut, the length of what the tool returned.
   */
  readonly output_size?: number | null;
  /** True when the result cap cut the result the caller got. */
  readonly truncated?: boolean;
  /**
   * For a result the cap cut, the characters of each part before the cut: `data`, `message`,
   * `error` and the `meta` entries the tool wrote (strings by length, the rest as JSON text).
   */
  readonly original_sizes?: ResultPartSizes;
}

/** The characters of each part of a result before the result cap cut it. */
export interface ResultPartSizes {
  /** `data`. */
  readonly data: number;
  /** `message`. */
  readonly message: number;
  /** `error`. */
  readonly error: number;
  /** The `meta` entries the tool wrote (the runtime's own entries are not counted). */
  readonly meta: number;
}
