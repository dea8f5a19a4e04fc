import { describe, expect, it } from 'vitest';
import { VerificationRequest } from '../verification/verification-request.js';
import { VerificationApprovalRecordedEvent } from './verification-approval-recorded-event.js';

describe('VerificationApprovalRecordedEvent', () => {
  it('returns the exact request, grant, counts and request id', () => {
    const request = new VerificationRequest('approval:delete_note', 'dual', {}, 'agent:a', 'corr-7');
    const approval = { principal: 'user:ana', at: new Date(0), reason: 'looks right' };
    const event = new VerificationApprovalRecordedEvent(request, approval, 1, 2);

    expect(event.getRequest()).toBe(request);
    expect(event.getApproval()).toBe(approval);
    expect([event.getApprovals(), event.getRequired()]).toEqual([1, 2]);
    expect(event.getRequestId()).toBe('corr-7');
    expect(Object.isFrozen(event)).toBe(true);
  });
});
