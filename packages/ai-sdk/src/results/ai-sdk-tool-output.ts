import { describeRefusalForModel, type Pagination, type ToolResult } from '@milpa/core';

/** What the model reads when a call ran: the tool's data and, when it wrote one, its message. */
export interface AiSdkToolSuccess {
  /** Always true: the call ran. */
  readonly ok: true;
  /** The tool's data, as JSON. */
  readonly data: unknown;
  /** The tool's message, when it wrote one. */
  readonly message?: string;
  /** Where a paginated result stands (`page`, `total_pages`, `total_items`, `limit`), so the model can ask for the next page. */
  readonly pagination?: Pagination;
}

/**
 * What the model reads when a call did not run (or failed): a code and a message it can act on,
 * never a thrown error that ends the run.
 *
 * @example
 * { ok: false, code: 'RATE_LIMITED', message: 'Rate limit exceeded …', retry_after_seconds: 42 }
 * { ok: false, code: 'APPROVAL_PENDING', message: '… held for approval …', approval_id: '…', expires_at: '…' }
 */
export interface AiSdkToolRefusal {
  /** Always false: nothing ran, or the tool failed. */
  readonly ok: false;
  /**
   * Why: a Milpa `ToolErrorCode` (`FORBIDDEN`, `RATE_LIMITED`, `VALIDATION_ERROR`,
   * `APPROVAL_PENDING`, `APPROVAL_INVALID`, …), `BLOCKED` (vetoed by a listener or rule) or
   * `TOOL_ERROR` (the tool failed without a code).
   */
  readonly code: string;
  /** The pipeline's (or the tool's) message, verbatim. */
  readonly message: string;
  /** Field-by-field problems, for `VALIDATION_ERROR`. */
  readonly errors?: readonly { readonly path: string; readonly message: string }[];
  /** Seconds until the budget refills, for `RATE_LIMITED`. */
  readonly retry_after_seconds?: number;
  /** The held call's id, for `APPROVAL_PENDING`: once someone else approves it, call the tool again with it. */
  readonly approval_id?: string;
  /** When the held call stops being resumable, for `APPROVAL_PENDING`. */
  readonly expires_at?: string;
  /** Why an approval cannot run this call, for `APPROVAL_INVALID` (e.g. `arguments_changed`, `used`). */
  readonly approval_refusal?: string;
  /** The invocation rule that refused the call, when one did. */
  readonly rule?: string;
  /** The rule's reason code, when a rule refused the call. */
  readonly reason?: string;
}

/** What an adapted tool's `execute` answers: the model reads it as the tool result. */
export type AiSdkToolOutput = AiSdkToolSuccess | AiSdkToolRefusal;

/** Plain JSON of `value` (dates as strings, `undefined` dropped), or null when it has none. */
function toJsonValue(value: unknown): unknown {
  if (value === undefined) return null;
  const text = JSON.stringify(value);
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

/** A refusal the adapter itself decides (an approval that cannot run the call, a fault). */
export function adapterRefusal(
  code: string,
  message: string,
  extra: Partial<Omit<AiSdkToolRefusal, 'ok' | 'code' | 'message'>> = {},
): AiSdkToolRefusal {
  return { ok: false, code, message, ...extra };
}

/**
 * A Milpa `ToolResult` as what the model reads. A success carries the data (and its message and
 * pagination, when it has them); anything else core's `describeRefusalForModel`: the code, the
 * message and what the model needs to act on it (validation issues, the retry delay, the held
 * call's `approval_id`, the refused approval's reason, the refusing rule).
 */
export function toAiSdkToolOutput(result: ToolResult): AiSdkToolOutput {
  if (result.success) {
    const pagination = result.getPagination();
    return {
      ok: true,
      data: toJsonValue(result.data),
      ...(result.message === null || result.message === '' ? {} : { message: result.message }),
      ...(pagination === null ? {} : { pagination: toJsonValue(pagination) as Pagination }),
    };
  }
  const described = describeRefusalForModel(result);
  const refusal: { -readonly [K in keyof AiSdkToolRefusal]: AiSdkToolRefusal[K] } = {
    ok: false,
    code: described.code,
    message: described.message,
  };
  if (described.errors !== undefined) refusal.errors = described.errors;
  if (described.retry_after_seconds !== undefined) refusal.retry_after_seconds = described.retry_after_seconds;
  if (described.approval_id !== undefined) {
    refusal.approval_id = described.approval_id;
    if (described.expires_at !== undefined) refusal.expires_at = described.expires_at;
  }
  if (described.approval_refusal !== undefined) refusal.approval_refusal = described.approval_refusal;
  if (described.rule !== undefined) refusal.rule = described.rule;
  if (described.reason !== undefined) refusal.reason = described.reason;
  return refusal;
}
