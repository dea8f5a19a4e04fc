import { ToolErrorCode, type ToolResult } from '@milpa/core';

/**
 * What the model reads when a call did not run (or failed): the reason's code and message, plus
 * the details a model can act on. Sent as JSON text: `{"error":{"code":…,"message":…}}`.
 */
export interface ModelRefusal {
  /** Why: a Milpa error code (`FORBIDDEN`, `VALIDATION_ERROR`, `APPROVAL_DENIED`…), `BLOCKED` or `TOOL_ERROR`. */
  readonly code: string;
  /** The pipeline's message, written for the model to read. */
  readonly message: string;
  /** Field-by-field validation problems, for `VALIDATION_ERROR`. */
  readonly errors?: readonly { readonly path: string; readonly message: string }[];
  /** Seconds until the budget refills, for `RATE_LIMITED`. */
  readonly retry_after_seconds?: number;
  /** Why an approval could not let the call run, for `APPROVAL_INVALID`. */
  readonly approval_refusal?: string;
  /** The id a call held by another approval gate waits under, for `APPROVAL_PENDING`. */
  readonly approval_id?: string;
  /** When that held call expires, for `APPROVAL_PENDING`. */
  readonly expires_at?: string;
}

function codeOf(result: ToolResult): string {
  const code = result.getCode();
  if (code !== null && Object.hasOwn(ToolErrorCode, code)) return code;
  return result.isBlocked() ? 'BLOCKED' : 'TOOL_ERROR';
}

function issuesOf(value: unknown): ModelRefusal['errors'] {
  if (!Array.isArray(value)) return undefined;
  const issues = value.filter(
    (issue): issue is { path: string; message: string } =>
      typeof issue === 'object' &&
      issue !== null &&
      typeof (issue as { path?: unknown }).path === 'string' &&
      typeof (issue as { message?: unknown }).message === 'string',
  );
  return issues.length === 0 ? undefined : issues.map(({ path, message }) => ({ path, message }));
}

/** The refusal a model reads for a failed result (see {@link ModelRefusal}). */
function refusalOf(result: ToolResult): ModelRefusal {
  const code = codeOf(result);
  const meta = result.meta;
  const base = { code, message: result.error ?? result.message ?? 'The call failed.' };
  if (code === ToolErrorCode.APPROVAL_PENDING) {
    // Milpa's own text tells a caller to call again with the approval_id; a model in an agent run
    // cannot (the id is not an argument it may send), so it is told what actually happens.
    const approvalId = typeof meta['approval_id'] === 'string' ? meta['approval_id'] : undefined;
    const expiresAt = typeof meta['expires_at'] === 'string' ? meta['expires_at'] : undefined;
    return {
      code,
      message: `The call is held until someone else approves it${expiresAt === undefined ? '' : ` (by ${expiresAt})`}. It has not run; the application resumes it once it is approved.`,
      ...(approvalId === undefined ? {} : { approval_id: approvalId }),
      ...(expiresAt === undefined ? {} : { expires_at: expiresAt }),
    };
  }
  const errors = issuesOf(meta['errors']);
  const retry = meta['retry_after_seconds'];
  const approvalRefusal = meta['approval_refusal'];
  return {
    ...base,
    ...(errors === undefined ? {} : { errors }),
    ...(typeof retry === 'number' ? { retry_after_seconds: retry } : {}),
    ...(typeof approvalRefusal === 'string' ? { approval_refusal: approvalRefusal } : {}),
  };
}

/**
 * The text a model reads for a Milpa `ToolResult`: for a success, the result's data (a string as
 * it is, anything else as JSON; the message when there is no data); for a refusal or failure,
 * `{"error":{"code":…,"message":…}}` with the details a model can act on ({@link ModelRefusal}).
 * A confirmation request never reaches the model with its token: confirmations come from the
 * person running the agent, so the model reads `CONFIRMATION_REQUIRED` and that nothing ran.
 *
 * @example
 * toModelOutput(ToolResult.success({ id: 7 }));                // '{"id":7}'
 * toModelOutput(ToolResult.failure('FORBIDDEN', 'No.'));      // '{"error":{"code":"FORBIDDEN","message":"No."}}'
 */
export function toModelOutput(result: ToolResult): string {
  if (result.requiresConfirmation()) {
    const tool = typeof result.meta['tool'] === 'string' ? result.meta['tool'] : 'this tool';
    const refusal: ModelRefusal = {
      code: ToolErrorCode.CONFIRMATION_REQUIRED,
      message: `'${tool}' needs the confirmation of the person running the agent, and this call was not confirmed in the agent run. Nothing ran.`,
    };
    return JSON.stringify({ error: refusal });
  }
  if (!result.success) return JSON.stringify({ error: refusalOf(result) });
  const data: unknown = result.data;
  if (typeof data === 'string') return data;
  if (data === null || data === undefined) return result.message ?? 'null';
  return JSON.stringify(data) ?? 'null';
}
