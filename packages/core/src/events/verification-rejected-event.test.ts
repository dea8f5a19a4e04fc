import { describe, expect, it } from 'vitest';
import { VerificationRequest } from '../verification/verification-request.js';
import { VerificationResult } from '../verification/verification-result.js';
import { VerificationRejectedEvent } from './verification-rejected-event.js';

describe('VerificationRejectedEvent', () => {
  it('returns the exact request, result and request id', () => {
    const request = new VerificationRequest('gate:proposal.sent', 'dual', {}, 'user:2', 'corr-123');
    const result = VerificationResult.fail('Not approved', [], 'human_verifier', {}, 'user:1');
    const event = new VerificationRejectedEvent(request, result);

    expect(event.getRequest()).toBe(request);
    expect(event.getResult()).toBe(result);
    expect(event.getRequestId()).toBe('corr-123');
    expect(Object.isFrozen(event)).toBe(true);
  });

  it('returns the id of a resolve-only request', () => {
    const event = new VerificationRejectedEvent(VerificationRequest.forResolution('corr-9'), VerificationResult.fail('no'));

    expect(event.getRequestId()).toBe('corr-9');
  });
});
