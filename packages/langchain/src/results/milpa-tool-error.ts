import type { ToolErrorCode } from '@milpa/core';

/**
 * Why a call was refused, as the model reads it: the content of every error `ToolMessage` the
 * toolkit returns is this object as JSON. `code` is a Milpa `ToolErrorCode`, or `BLOCKED` (a rule
 * or listener vetoed the call) `TOOL_ERROR` (the tool reported a failure without a code) or `CONFIRMATION_DECLINED` (the person asked
 * to confirm the call declined).
 *
 * @example
 * { "code": "FORBIDDEN", "message": "Missing required scope for tool 'delete_note'. Need one of: notes:write — context has: notes:read." }
 */
export interface MilpaToolError {
  /** Why the call was refused. */
  readonly code: ToolErrorCode | 'BLOCKED' | 'TOOL_ERROR' | 'CONFIRMATION_DECLINED';
  /** The pipeline's message, verbatim: what failed and, where it can, how to correct it. */
  readonly message: string;
  /** Field-by-field validation problems, for `VALIDATION_ERROR`. */
  readonly errors?: readonly { readonly path: string; readonly message: string }[];
  /** Seconds until the budget refills, for `RATE_LIMITED`. */
  readonly retry_after_seconds?: number;
  /** The rule's suggestion, for `BLOCKED` when it gave one. */
  readonly suggestion?: string;
  /** The id the call is held under, for `APPROVAL_PENDING` (for people and hosts; the model cannot resume it). */
  readonly approval_id?: string;
  /** When the held call stops being resumable, for `APPROVAL_PENDING`. */
  readonly expires_at?: string;
  /**
   * Why an approval could not resume the call, for `APPROVAL_INVALID`: the pipeline's reasons
   * (`used`, `expired`, `arguments_changed`, …) or the toolkit's own — `call_mismatch` (the
   * decision names another tool call), `arguments_changed` (the decision approves other arguments,
   * or is an edit) and `invalid_decision` (the resume value is not one decision).
   */
  readonly approval_refusal?: string;
}
