import type { MilpaReviewRequest, MilpaReviewResponse } from './milpa-review-request.js';

/**
 * The resume value that approves the paused call of `request` — bound to its tool call id and
 * the arguments shown. Resume the run with it under the interrupt's own id.
 *
 * @example
 * const paused = result.__interrupt__[0];
 * await agent.invoke(new Command({ resume: { [paused.id]: approveReview(paused.value) } }), config);
 */
export function approveReview(request: MilpaReviewRequest): MilpaReviewResponse {
  const action = request.actionRequests[0];
  return {
    decisions: [{ type: 'approve', tool_call_id: request.milpa.tool_call_id, ...(action === undefined ? {} : { args: action.args }) }],
  };
}
