import {
  ApprovalBinding,
  ToolErrorCode,
  ToolResult,
  type ApprovalBindingRefusal,
  type ApprovalStore,
  type BoundToolCall,
  type ToolContext,
} from '@milpa/core';

/** Why a run's approval cannot let a call run: the shared binding's refusals. */
export type HeldCallRefusal = Exclude<ApprovalBindingRefusal, 'unavailable'>;

/**
 * The run's held calls, on core's approval binding: ids derived from the call id and its caller
 * (scope `caller`), so the process that resumes a serialized run finds them without any state of
 * its own, and another caller finds nothing.
 */
export function runCallBinding(store: ApprovalStore, ttlMs: number): ApprovalBinding {
  return new ApprovalBinding({ store, namespace: 'openai-agents', ttlMs, scope: 'caller' });
}

function boundCall(toolName: string, callId: string, args: unknown, context: ToolContext): BoundToolCall {
  return { toolCallId: callId, toolName, args, principal: context.principal, channel: context.channel, runId: context.runId };
}

/**
 * Holds a call the run is about to interrupt for, bound to the tool, the call id, the digest of the
 * arguments the person will see, and the caller. Asking again for the same call keeps the first
 * binding (its arguments win). Resolves false when the store failed.
 */
export async function holdRunCall(
  binding: ApprovalBinding,
  toolName: string,
  callId: string,
  args: Readonly<Record<string, unknown>>,
  context: ToolContext,
): Promise<boolean> {
  return (await binding.bind(boundCall(toolName, callId, args, context))) !== 'failed';
}

const REFUSALS: Readonly<Record<HeldCallRefusal, string>> = {
  not_found:
    'the run approved a call it never asked about ' +
    '(an approval given before its interruption, or for every call of the tool, is not an approval of this call)',
  used: 'this approval was used already: an approved call runs once',
  expired: 'the approval came after the held call expired; ask again',
  tool_mismatch: 'the approval was given for another tool',
  principal_mismatch: 'the approval was given to another principal',
  channel_mismatch: 'the approval was given on another channel',
  run_mismatch: 'the approval belongs to another run',
  arguments_changed: 'the arguments differ from the ones the person approved',
};

/**
 * Turns the run's approval of one call into its single use (see core's `ApprovalBinding.redeem`):
 * however many processes resume the same run state, one goes on. Resolves null when the call may
 * go on, or the refusal the model reads. A failing store refuses.
 */
export async function redeemRunCall(
  binding: ApprovalBinding,
  toolName: string,
  callId: string,
  args: Readonly<Record<string, unknown>>,
  context: ToolContext,
): Promise<ToolResult | null> {
  const redemption = await binding.redeem(boundCall(toolName, callId, args, context));
  if (redemption.ok) return null;
  if (redemption.refusal === 'unavailable') {
    return ToolResult.failure(
      ToolErrorCode.APPROVAL_DENIED,
      `Call to '${toolName}' refused: the approval store failed (fail-closed). Nothing ran.`,
      null,
      { tool: toolName, request_id: callId },
    );
  }
  return ToolResult.failure(
    ToolErrorCode.APPROVAL_INVALID,
    `Call to '${toolName}' refused: ${REFUSALS[redemption.refusal]}. Nothing ran.`,
    null,
    { tool: toolName, request_id: callId, approval_refusal: redemption.refusal },
  );
}

/**
 * Closes the held call of a call the person rejected (marks it used), so that no copy of the run
 * state saved before the decision can approve it later.
 */
export async function closeRejectedRunCall(
  binding: ApprovalBinding,
  toolName: string,
  callId: string,
  context: ToolContext,
): Promise<void> {
  await binding.close({ toolCallId: callId, toolName, principal: context.principal, channel: context.channel, runId: context.runId });
}
