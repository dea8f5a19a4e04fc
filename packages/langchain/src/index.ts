// @milpa/langchain: a Milpa registry's tools as LangChain tools, every call governed by the pipeline.
// Refusals reach the model as error ToolMessages; held calls and confirmations pause the run for a bound human decision.

export { MilpaToolkit } from './toolkit/milpa-toolkit.js';
export type { MilpaToolkitOptions } from './toolkit/milpa-toolkit-options.js';
export { MilpaTool, type GovernedCallRunner, type MilpaToolFields } from './toolkit/milpa-tool.js';
export type { GovernedCallOptions, GovernedToolRegistry } from './registry/governed-tool-registry.js';
export type { MilpaToolError } from './results/milpa-tool-error.js';
export type {
  MilpaActionRequest,
  MilpaReviewBinding,
  MilpaReviewConfig,
  MilpaReviewDecision,
  MilpaReviewDecisionType,
  MilpaReviewKind,
  MilpaReviewRequest,
  MilpaReviewResponse,
} from './review/milpa-review-request.js';
export type { HeldCallReview } from './review/held-call-review.js';
export { approveReview } from './review/approve-review.js';
export { rejectReview } from './review/reject-review.js';
