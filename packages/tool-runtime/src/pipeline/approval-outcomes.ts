import { ToolErrorCode, ToolResult, type PendingApproval } from '@milpa/core';
import { formatExpiresAt } from '../confirmation/format-expires-at.js';
import { approvalPendingOutcome } from './call-outcomes.js';
import type { PipelineCall } from './pipeline-call.js';
import { CALLER_ABORTED, isPromiseLike, messageOf, untilCallerAborts } from './settle.js';
import type { STOP, StageVerdict } from './stage.js';

/** What an approval collaborator is, in a refusal's message. */
export type ApprovalCollaborator = 'gate' | 'store';

/**
 * Ends the call with `APPROVAL_DENIED` (outcome `approval_denied`, dispatched in `tool.denied` with
 * reason `approval_denied`): nothing ran, and an agent loop reads the message and carries on.
 */
export function denyApproval(call: PipelineCall, message: string, meta?: Record<string, unknown>): typeof STOP {
  call.denial = 'approval_denied';
  return call.refuse(ToolErrorCode.APPROVAL_DENIED, message, 'approval_denied', meta);
}

/**
 * An approval gate or store threw, rejected or answered garbage: the call is denied (fail-closed).
 * The failure's text is only logged, scrubbed of the call's secrets: a gate's exception may quote
 * what it was asked about. A failing store is named in `meta.store` (`approval`), as every other
 * store's failure is.
 */
export function approvalFailed(call: PipelineCall, collaborator: ApprovalCollaborator, error: unknown): typeof STOP {
  const detail = call.scrub(messageOf(error));
  call.services.safeLog(
    'error',
    { tool: call.toolName, request_id: call.context.requestId, collaborator: `approval ${collaborator}`, error: detail },
    `[ToolRegistry] the approval ${collaborator} failed for '${call.toolName}': ${detail}; the call is denied (fail-closed)`,
  );
  const meta = collaborator === 'store' ? { store: 'approval' } : undefined;
  return denyApproval(call, `Call to '${call.toolName}' refused: the approval ${collaborator} failed (fail-closed).`, meta);
}

/** A presented `approval_id` cannot resume this call: `APPROVAL_INVALID` with `meta.approval_refusal`. */
export function invalidApproval(call: PipelineCall, refusal: string, message: string): typeof STOP {
  return call.refuse(ToolErrorCode.APPROVAL_INVALID, message, 'approval_invalid', { approval_refusal: refusal });
}

/**
 * The call is held: `APPROVAL_PENDING` with the `approval_id` to resume with and its expiry, in
 * `data` and in `meta`, and a message that tells an agent how to resume.
 */
export function pendingApproval(call: PipelineCall, approval: PendingApproval, note: string | null): typeof STOP {
  const tool = approval.toolName;
  const expiresAt = formatExpiresAt(approval.expiresAt);
  // The gate's note may quote the arguments it was asked about.
  const head = note === null ? 'This call needs approval from someone else before it runs.' : call.scrub(note);
  const message =
    `${head} Call '${tool}' is held for approval (approval_id: ${approval.approvalId}, expires ${expiresAt}). ` +
    `Once it is approved, call '${tool}' again with the same arguments and approval_id "${approval.approvalId}"; it then runs once.`;
  const data = Object.freeze({ requires_approval: true, approval_id: approval.approvalId, tool, expires_at: expiresAt });
  const meta = { ...call.reportingMeta(), code: ToolErrorCode.APPROVAL_PENDING, approval_id: approval.approvalId, expires_at: expiresAt };
  const outcome = approvalPendingOutcome(approval.approvalId, expiresAt);
  const result = new ToolResult(false, data, message, message, { ...meta, type: 'approval_pending' }, outcome);
  return call.end(result, outcome, message);
}

/**
 * Runs `ask` (an approval collaborator's call) contained and, when it answers with a promise,
 * within the caller's abort: a throw, a rejection or an abort while waiting denies the call;
 * otherwise `next` decides on the answer.
 */
export function askApproval<T>(
  call: PipelineCall,
  collaborator: ApprovalCollaborator,
  ask: () => T | PromiseLike<T>,
  next: (answer: T) => StageVerdict,
): StageVerdict {
  let answer: T | PromiseLike<T>;
  try {
    answer = ask();
  } catch (error) {
    return approvalFailed(call, collaborator, error);
  }
  if (!isPromiseLike<T>(answer)) return next(answer);
  return Promise.resolve(untilCallerAborts(answer, call.options?.signal)).then(
    (settled) => next(settled),
    (error: unknown) =>
      error === CALLER_ABORTED
        ? denyApproval(call, `Call to '${call.toolName}' refused: the approval ${collaborator} did not answer before the caller aborted.`)
        : approvalFailed(call, collaborator, error),
  );
}
