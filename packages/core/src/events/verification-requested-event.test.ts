import { describe, expect, it } from 'vitest';
import { VerificationRequest } from '../verification/verification-request.js';
import { VerificationRequestedEvent } from './verification-requested-event.js';

describe('VerificationRequestedEvent', () => {
  it('returns the exact request and its id', () => {
    const request = new VerificationRequest('gate:proposal.sent', 'single', {}, null, 'corr-123');
    const event = new VerificationRequestedEvent(request);

    expect(event.getRequest()).toBe(request);
    expect(event.getRequestId()).toBe('corr-123');
    expect(Object.isFrozen(event)).toBe(true);
  });

  it('returns null as id when the request has none', () => {
    expect(new VerificationRequestedEvent(new VerificationRequest('gate:x')).getRequestId()).toBeNull();
  });

  it('exposes no flattened fields', () => {
    const event = new VerificationRequestedEvent(new VerificationRequest('gate:x', 'single', {}, null, 'corr-1'));

    expect((event as unknown as Record<string, unknown>)['subject']).toBeUndefined();
    expect(Object.keys(event)).toEqual([]);
  });
});
