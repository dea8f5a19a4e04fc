import { ToolErrorCode, describeRefusalForModel, type ToolResult } from '@milpa/core';

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

/** The refusal a model reads for a failed result (see {@link ModelRefusal}), from core's one mapping. */
function refusalOf(result: ToolResult): ModelRefusal {
  const refusal = describeRefusalForModel(result);
  const { code } = refusal;
  if (code === ToolErrorCode.APPROVAL_PENDING) {
    // Milpa's own text tells a caller to call again with the approval_id; a model in an agent run
    // cannot (the id is not an argument it may send), so it is told what actually happens.
    const { approval_id: approvalId, expires_at: expiresAt } = refusal;
    return {
      code,
      message:
        `The call is held until someone else approves it${expiresAt === undefined ? '' : ` (by ${expiresAt})`}. ` +
        'It has not run; the application resumes it once it is approved.',
      ...(approvalId === undefined ? {} : { approval_id: approvalId }),
      ...(expiresAt === undefined ? {} : { expires_at: expiresAt }),
    };
  }
  const errors = refusal.errors?.length ? refusal.errors : undefined;
  return {
    code,
    message: refusal.message,
    ...(errors === undefined ? {} : { errors }),
    ...(refusal.retry_after_seconds === undefined ? {} : { retry_after_seconds: refusal.retry_after_seconds }),
    ...(refusal.approval_refusal === undefined ? {} : { approval_refusal: refusal.approval_refusal }),
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
  // The outcome says the call waits for a confirmation; a result built without one says so in its wire flag.
  if (result.getConfirmationRequest() !== null || result.requiresConfirmation()) {
    const tool = typeof result.meta['tool'] === 'string' ? result.meta['tool'] : 'this tool';
    const refusal: ModelRefusal = {
      code: ToolErrorCode.CONFIRMATION_REQUIRED,
      message:
        `'${tool}' needs the confirmation of the person running the agent, ` +
        'and this call was not confirmed in the agent run. Nothing ran.',
    };
    return JSON.stringify({ error: refusal });
  }
  if (!result.success) return JSON.stringify({ error: refusalOf(result) });
  const data: unknown = result.data;
  if (typeof data === 'string') return data;
  if (data === null || data === undefined) return result.message ?? 'null';
  return JSON.stringify(data) ?? 'null';
}
