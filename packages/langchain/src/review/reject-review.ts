import type { MilpaReviewRequest, MilpaReviewResponse } from './milpa-review-request.js';

/**
 * The resume value that rejects the paused call of `request`; `message` is what the model reads.
 *
 * @example
 * await agent.invoke(new Command({ resume: { [paused.id]: rejectReview(paused.value, 'Not this note.') } }), config);
 */
export function rejectReview(request: MilpaReviewRequest, message?: string): MilpaReviewResponse {
  return { decisions: [{ type: 'reject', tool_call_id: request.milpa.tool_call_id, ...(message === undefined ? {} : { message }) }] };
}
