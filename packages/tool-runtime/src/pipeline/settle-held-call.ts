import type { ApprovalSettlement, ToolResult } from '@milpa/core';
import type { PipelineCall } from './pipeline-call.js';
import { messageOf } from './settle.js';

/**
 * Records in the approval store how a resumed held call ended — `succeeded` when the tool ran and
 * returned a result, `failed` with the result's error code otherwise (refused again right before
 * running, or the tool failed) — so an approvals page in any process sharing the store shows it.
 * Only for a call whose resume redeemed the held call; a store without `settle` is skipped. It runs
 * after the call has ended, like the span's end, so it is no step of the call's plan, and a store
 * that fails is logged and never changes the result.
 */
export async function settleHeldCall(call: PipelineCall, result: ToolResult): Promise<void> {
  const approval = call.approval;
  if (approval === null || approval.redeemedAt === null) return;
  const store = call.services.approvals.store;
  if (typeof store.settle !== 'function') return;
  const settlement: ApprovalSettlement = Object.freeze({
    outcome: result.success ? 'succeeded' : 'failed',
    code: result.success ? null : (result.getCode() ?? 'UNKNOWN'),
    at: new Date(Date.now()),
  });
  try {
    await store.settle(approval.approvalId, settlement);
  } catch (error) {
    call.services.safeLog(
      'warn',
      { tool: call.toolName },
      `[ToolRegistry] the approval store could not record how held call ${approval.approvalId} ended: ${messageOf(error)}`,
    );
  }
}
