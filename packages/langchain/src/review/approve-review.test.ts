import { describe, expect, it } from 'vitest';
import { approveReview } from './approve-review.js';
import type { MilpaReviewRequest } from './milpa-review-request.js';
import { readReviewDecision } from './read-review-decision.js';
import { rejectReview } from './reject-review.js';

const request: MilpaReviewRequest = {
  actionRequests: [{ name: 'delete_note', args: { id: 'n1' }, description: 'Approve?' }],
  reviewConfigs: [{ actionName: 'delete_note', allowedDecisions: ['approve', 'reject'] }],
  milpa: { kind: 'approval', tool_call_id: 'call_7', tool: 'delete_note', approval_id: 'a7', expires_at: null },
};

describe('approveReview', () => {
  it('approves the call of the request, bound to its call id and arguments', () => {
    const response = approveReview(request);

    expect(response).toEqual({ decisions: [{ type: 'approve', tool_call_id: 'call_7', args: { id: 'n1' } }] });
    expect(readReviewDecision(response, 'call_7', { id: 'n1' })).toEqual({ kind: 'approve' });
    expect(readReviewDecision(response, 'call_8', { id: 'n1' })).toMatchObject({ kind: 'refused' });
  });
});

describe('rejectReview', () => {
  it('rejects the call of the request, with or without a message', () => {
    expect(rejectReview(request, 'Not today.')).toEqual({ decisions: [{ type: 'reject', tool_call_id: 'call_7', message: 'Not today.' }] });
    expect(readReviewDecision(rejectReview(request), 'call_7', { id: 'n1' })).toEqual({ kind: 'reject', message: null });
  });
});
