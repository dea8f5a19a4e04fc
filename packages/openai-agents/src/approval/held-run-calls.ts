import { ToolErrorCode, ToolResult, type ApprovalRefusal, type ApprovalStore, type PendingApproval, type ToolContext } from '@milpa/core';
import { digestCallArguments, heldCallId } from './digest-call-arguments.js';

/** Why a run's approval cannot let a call run: the store's refusals plus `arguments_changed`. */
export type HeldCallRefusal = ApprovalRefusal | 'arguments_changed';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function keyOf(toolName: string, callId: string, context: ToolContext) {
  return { toolName, callId, principal: context.principal, channel: context.channel, runId: context.runId };
}

/**
 * Holds a call the run is about to interrupt for: a record in the approval store bound to the tool,
 * the call id, the digest of the arguments the person will see, and the caller. Asking again for
 * the same call keeps the first record (its arguments win). Resolves false when the store failed.
 */
export async function holdRunCall(
  store: ApprovalStore,
  toolName: string,
  callId: string,
  args: Readonly<Record<string, unknown>>,
  context: ToolContext,
  ttlMs: number,
): Promise<boolean> {
  try {
    const now = Date.now();
    const approval: PendingApproval = Object.freeze({
      approvalId: heldCallId(keyOf(toolName, callId, context)),
      toolName,
      arguments: deepFreeze(structuredClone(args)),
      argumentsDigest: digestCallArguments(args),
      principal: context.principal,
      channel: context.channel,
      runId: context.runId,
      requestId: callId,
      createdAt: new Date(now),
      expiresAt: new Date(now + ttlMs),
      redeemedAt: null,
    });
    // false: this call is held already (the run asked again on resume); the first record stands.
    await store.open(approval);
    return true;
  } catch {
    return false;
  }
}

const REFUSALS: Readonly<Record<HeldCallRefusal, string>> = {
  not_found:
    'the run approved a call it never asked about (an approval given before its interruption, or for every call of the tool, is not an approval of this call)',
  used: 'this approval was used already: an approved call runs once',
  expired: 'the approval came after the held call expired; ask again',
  tool_mismatch: 'the approval was given for another tool',
  principal_mismatch: 'the approval was given to another principal',
  channel_mismatch: 'the approval was given on another channel',
  run_mismatch: 'the approval belongs to another run',
  arguments_changed: 'the arguments differ from the ones the person approved',
};

function refuse(toolName: string, callId: string, refusal: HeldCallRefusal): ToolResult {
  return ToolResult.failure(ToolErrorCode.APPROVAL_INVALID, `Call to '${toolName}' refused: ${REFUSALS[refusal]}. Nothing ran.`, null, {
    tool: toolName,
    request_id: callId,
    approval_refusal: refusal,
  });
}

/**
 * Turns the run's approval of one call into its single use: the held record must exist, carry the
 * digest of exactly these arguments, belong to this caller and be unused and unexpired; it is then
 * marked used atomically, so however many processes resume the same run state, one goes on.
 * Resolves null when the call may go on, or the refusal the model reads. A failing store refuses.
 */
export async function redeemRunCall(
  store: ApprovalStore,
  toolName: string,
  callId: string,
  args: Readonly<Record<string, unknown>>,
  context: ToolContext,
): Promise<ToolResult | null> {
  const approvalId = heldCallId(keyOf(toolName, callId, context));
  try {
    const held = await store.get(approvalId);
    if (held === null || held === undefined) return refuse(toolName, callId, 'not_found');
    // Checked before redeeming: other arguments leave the held call to the one that asked.
    if (held.argumentsDigest !== digestCallArguments(args)) return refuse(toolName, callId, 'arguments_changed');
    const redemption = await store.redeem(approvalId, {
      toolName,
      principal: context.principal,
      channel: context.channel,
      runId: context.runId,
      at: new Date(Date.now()),
    });
    if (redemption.status === 'redeemed') return null;
    if (redemption.status === 'refused' && Object.hasOwn(REFUSALS, redemption.refusal)) return refuse(toolName, callId, redemption.refusal);
    throw new TypeError('the approval store answered a malformed redemption');
  } catch {
    return ToolResult.failure(
      ToolErrorCode.APPROVAL_DENIED,
      `Call to '${toolName}' refused: the approval store failed (fail-closed). Nothing ran.`,
      null,
      {
        tool: toolName,
        request_id: callId,
      },
    );
  }
}

/**
 * Closes the held call of a call the person rejected (marks it used), so that no copy of the run
 * state saved before the decision can approve it later. Unknown, closed or foreign held calls are
 * left as they are; a failing store is left to expire the held call.
 */
export async function closeRejectedRunCall(store: ApprovalStore, toolName: string, callId: string, context: ToolContext): Promise<void> {
  try {
    await store.redeem(heldCallId(keyOf(toolName, callId, context)), {
      toolName,
      principal: context.principal,
      channel: context.channel,
      runId: context.runId,
      at: new Date(Date.now()),
    });
  } catch {
    // Nothing more to do: the held call expires, and the rejected run never asks to run it.
  }
}
