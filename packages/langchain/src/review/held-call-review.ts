import type { ToolContext } from '@milpa/core';
import type { MilpaReviewDecisionType } from './milpa-review-request.js';

/**
 * A reviewer's decision on a call Milpa holds for approval, handed to the toolkit's
 * `recordDecision` before the call resumes, so the host can record it where the registry's
 * approval gate reads decisions (e.g. `verifier.grant()` as the signed-in reviewer). Only a
 * decision bound to this call and its arguments gets here.
 */
export interface HeldCallReview {
  /** Approve or reject. */
  readonly decision: MilpaReviewDecisionType;
  /** The id Milpa holds the call under. */
  readonly approvalId: string;
  /** The LangChain tool call id (the call's request id). */
  readonly toolCallId: string;
  /** The tool called. */
  readonly toolName: string;
  /** The arguments held: exactly what runs. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The calling context (the requester). */
  readonly context: ToolContext;
  /** The reviewer's message on a reject, or null. */
  readonly message: string | null;
}
