import { isRecord } from '../kit/is-record.js';
import type { ToolResult } from '../result/tool-result.js';
import { ToolErrorCode, isToolErrorCode } from '../result/tool-error-code.js';

/** One field's problem, as a model reads it: the field's path and what is wrong with it. */
export interface FieldProblemForModel {
  /** The field's path, e.g. `id` or `items.0.name`. */
  readonly path: string;
  /** What is wrong with it. */
  readonly message: string;
}

/**
 * What a model reads about a call that did not run, or failed: the code and the message, plus
 * every detail it can act on. Field names are the wire names (snake_case); each model-facing
 * boundary copies the fields its protocol carries into its own shape.
 */
export interface RefusalForModel {
  /**
   * Why: the result's `ToolErrorCode`; `BLOCKED` when a rule or listener vetoed the call;
   * `TOOL_ERROR` when the tool failed without a code.
   */
  readonly code: ToolErrorCode | 'BLOCKED' | 'TOOL_ERROR';
  /** The pipeline's (or the tool's) message, verbatim. */
  readonly message: string;
  /** Field-by-field problems, for `VALIDATION_ERROR`. */
  readonly errors?: readonly FieldProblemForModel[];
  /** Seconds until the rate budget refills, for `RATE_LIMITED` (or until an upstream is back). */
  readonly retry_after_seconds?: number;
  /** The vetoing rule's suggestion, when it gave one. */
  readonly suggestion?: string;
  /** The held call's id, for `APPROVAL_PENDING`. */
  readonly approval_id?: string;
  /** When the held call stops being resumable (ISO 8601), for `APPROVAL_PENDING`. */
  readonly expires_at?: string;
  /** Why an approval could not let the call run (`used`, `expired`, `arguments_changed`, …), for `APPROVAL_INVALID`. */
  readonly approval_refusal?: string;
  /** The invocation rule that refused the call, when one did. */
  readonly rule?: string;
  /** That rule's reason code, when it gave one. */
  readonly reason?: string;
}

function fieldProblems(value: unknown): FieldProblemForModel[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(isRecord).map((issue) => ({ path: String(issue['path'] ?? ''), message: String(issue['message'] ?? '') }));
}

function codeOf(result: ToolResult): RefusalForModel['code'] {
  const code = result.getCode();
  if (isToolErrorCode(code)) return code;
  if (result.isBlocked()) return 'BLOCKED';
  const outcome = result.outcome;
  if (outcome?.kind === 'refused' || outcome?.kind === 'failed') return outcome.code;
  if (outcome?.kind === 'approval_pending') return ToolErrorCode.APPROVAL_PENDING;
  return 'TOOL_ERROR';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The one mapping from a result that did not succeed to what a model reads about it, shared by every
 * model-facing boundary (MCP server, framework adapters). How the call ended comes from
 * `result.outcome`: a held call's `approval_id` and `expires_at` from its `approval_pending`
 * outcome, the code from a refusal's or failure's outcome when the result carries none. The details
 * a model must see to correct itself (`errors`, `retry_after_seconds`, `suggestion`,
 * `approval_refusal`, `rule`, `reason`) are copied from the result's payload. A result that did not
 * come out of a registry (no outcome: one a handler built, or one read back from JSON) is read from
 * its wire fields alone.
 *
 * @example
 * const refusal = describeRefusalForModel(await registry.call('delete_note', { id: 7 }, context));
 * // { code: 'APPROVAL_PENDING', message: '…', approval_id: '…', expires_at: '2026-…' }
 */
export function describeRefusalForModel(result: ToolResult): RefusalForModel {
  const code = codeOf(result);
  const meta = result.meta;
  const details: { -readonly [K in keyof RefusalForModel]: RefusalForModel[K] } = {
    code,
    message: result.error ?? result.message ?? 'The call failed.',
  };
  const errors = fieldProblems(meta['errors']);
  if (errors !== undefined) details.errors = errors;
  const retryAfter = meta['retry_after_seconds'];
  if (typeof retryAfter === 'number') details.retry_after_seconds = retryAfter;
  const suggestion = text(meta['suggestion']);
  if (suggestion !== undefined) details.suggestion = suggestion;
  if (code === ToolErrorCode.APPROVAL_PENDING) {
    const pending = result.getPendingApproval();
    // Without an outcome, the held call is described by the result's own wire fields.
    const approvalId = pending?.approvalId ?? (result.outcome === null ? text(meta['approval_id']) : undefined);
    const expiresAt = pending?.expiresAt ?? (result.outcome === null ? text(meta['expires_at']) : undefined);
    if (approvalId !== undefined) {
      details.approval_id = approvalId;
      if (expiresAt !== undefined) details.expires_at = expiresAt;
    }
  }
  const approvalRefusal = text(meta['approval_refusal']);
  if (approvalRefusal !== undefined) details.approval_refusal = approvalRefusal;
  const rule = text(meta['rule']);
  if (rule !== undefined) details.rule = rule;
  const reason = text(meta['reason']);
  if (reason !== undefined) details.reason = reason;
  return details;
}
