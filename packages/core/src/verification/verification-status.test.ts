import { describe, expect, it } from 'vitest';
import { VerificationStatus } from './verification-status.js';

describe('VerificationStatus', () => {
  it('has the values pending, passed, failed and waived', () => {
    expect(VerificationStatus).toEqual({ PENDING: 'pending', PASSED: 'passed', FAILED: 'failed', WAIVED: 'waived' });
    expect(Object.isFrozen(VerificationStatus)).toBe(true);
  });
});
