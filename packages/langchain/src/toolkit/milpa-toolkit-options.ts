import type { ApprovalStore } from '@milpa/core';
import type { HeldCallReview } from '../review/held-call-review.js';
import type { MilpaReviewRequest } from '../review/milpa-review-request.js';

/** Options of a {@link MilpaToolkit}. */
export interface MilpaToolkitOptions {
  /**
   * LangGraph's `interrupt` (from `@langchain/langgraph`), to pause the run when the pipeline holds
   * a call for approval or asks for a confirmation: the run stops with a {@link MilpaReviewRequest}
   * and resumes with the reviewer's decision. Needs a checkpointer, like every interrupt. Without
   * it, such a call is refused (`APPROVAL_PENDING`, `CONFIRMATION_REQUIRED`) and nothing runs.
   */
  readonly interrupt?: (request: MilpaReviewRequest) => unknown;
  /**
   * Records a reviewer's bound decision on a held call where the registry's approval gate reads
   * decisions, before the call resumes — e.g. `verifier.grant()` as the signed-in reviewer. The
   * gate's own rules apply (no self-approval, dual, quorum). A throw refuses the call. Without it,
   * approvers decide through Milpa itself (`resolve_verification`, a console) and an approve only
   * resumes the call, which runs if they have granted it.
   */
  readonly recordDecision?: (review: HeldCallReview) => void | Promise<void>;
  /**
   * Where a reviewer's decision is bound to the call it answers (its tool call id, a digest of its
   * arguments and the caller) and redeemed once, through core's approval binding; default the
   * registry's approval store. Toolkits in several processes that share it run an approved call once.
   */
  readonly approvalStore?: ApprovalStore;
}
