import type { ContentBlock, ToolResult } from '@milpa/core';
import { readConfirmationRequest, type ConfirmationRequest } from './confirmation-request.js';
import { readPlanPreview, type PlanPreview } from './plan-preview.js';

/** A result shape written by this runtime that renderers show in a frame of its own, not as generic data. */
export type RuntimeResultShape =
  | { readonly kind: 'confirmation-request'; readonly request: ConfirmationRequest }
  | { readonly kind: 'content'; readonly blocks: readonly ContentBlock[] }
  | { readonly kind: 'plan'; readonly plan: PlanPreview };

/**
 * Which runtime shape `result` has, if any: a confirm-token request first (its `meta.type` is
 * `'confirmation'`, but a yes/no prompt cannot redeem a token), then content blocks, then a plan.
 */
export function readRuntimeResultShape(result: ToolResult): RuntimeResultShape | null {
  const request = readConfirmationRequest(result);
  if (request !== null) return { kind: 'confirmation-request', request };
  const blocks = result.getContent();
  if (blocks !== null) return { kind: 'content', blocks };
  const plan = readPlanPreview(result);
  return plan === null ? null : { kind: 'plan', plan };
}
