import { describe, expect, it } from 'vitest';
import { VerificationRequest } from '../verification/verification-request.js';
import { VerificationResult } from '../verification/verification-result.js';
import { VerificationGrantedEvent } from './verification-granted-event.js';

describe('VerificationGrantedEvent', () => {
  it('returns the exact request, result and request id', () => {
    const request = new VerificationRequest('gate:proposal.sent', 'single', {}, null, 'corr-123');
    const result = VerificationResult.pass('human_verifier', 'user:1');
    const event = new VerificationGrantedEvent(request, result);

    expect(event.getRequest()).toBe(request);
    expect(event.getResult()).toBe(result);
    expect(event.getRequestId()).toBe('corr-123');
    expect(Object.isFrozen(event)).toBe(true);
  });

  it('returns the id of a resolve-only request', () => {
    const event = new VerificationGrantedEvent(VerificationRequest.forResolution('corr-9'), VerificationResult.pass());

    expect(event.getRequestId()).toBe('corr-9');
    expect(event.getRequest().subject).toBeNull();
  });
});
