import { mutabilityOf } from '@milpa/core';
import type { PipelineCall } from './pipeline-call.js';

/**
 * The confirmation token this call presents (the `confirmToken` call option), as given: a caller
 * may pass anything, and a value that is not a string is refused as an invalid token. Undefined
 * when it presents none (`null` counts as none).
 */
export function presentedConfirmToken(call: PipelineCall): unknown {
  const token: unknown = call.options?.confirmToken;
  return token === null ? undefined : token;
}

/**
 * The approval id this call presents (the `approvalId` call option) when it resumes a held call:
 * only a tool an approval gate may hold has one, so for any other tool it is undefined, as for a
 * call that presents none. A value that is not a string is refused as an unknown approval id.
 */
export function presentedApprovalId(call: PipelineCall): unknown {
  const approvalId: unknown = call.options?.approvalId;
  if (approvalId === undefined || approvalId === null || call.entry === null) return undefined;
  const tool = call.entry.definition;
  if (mutabilityOf(tool) === 'read_only' || call.services.approvals.gateFor(tool.name) === null) return undefined;
  return approvalId;
}

/**
 * True when this call resumes a held call (it presents an approval id for a tool an approval gate
 * may hold): confirm stands aside, approve redeems it, and the rules run over the approved arguments.
 */
export function isResuming(call: PipelineCall): boolean {
  return presentedApprovalId(call) !== undefined;
}

/** The most characters of the agent's stated reason an approval request keeps. */
export const MAX_REASON_CHARS = 1_000;

/**
 * Why the agent says it makes this call (the `reason` call option), trimmed, or null when it gave
 * none, gave an empty one or gave something that is not a string. Only the option counts: an
 * argument named `reason` is the tool's, never this. The approve stage scrubs and cuts it to
 * {@link MAX_REASON_CHARS} characters before a gate sees it.
 */
export function presentedReason(call: PipelineCall): string | null {
  const reason: unknown = call.options?.reason;
  if (typeof reason !== 'string') return null;
  const trimmed = reason.trim();
  return trimmed === '' ? null : trimmed;
}
