import { MilpaError } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { VerificationError } from './verification-error.js';

describe('VerificationError', () => {
  describe('constructor', () => {
    it('carries the code, kind, request id and message when built', () => {
      const cause = new Error('store down');
      const error = new VerificationError("Verification request 'r-1' does not exist.", {
        code: 'NOT_FOUND',
        kind: 'not_found',
        requestId: 'r-1',
        cause,
      });
      expect(error).toMatchObject({
        name: 'VerificationError',
        code: 'NOT_FOUND',
        kind: 'not_found',
        requestId: 'r-1',
        message: "Verification request 'r-1' does not exist.",
      });
      expect(error.cause).toBe(cause);
    });

    it('is a MilpaError recognised by its brand when built', () => {
      const error = new VerificationError('x', { code: 'CONFLICT', kind: 'duplicate_id', requestId: null });
      expect(error).toBeInstanceOf(MilpaError);
      expect(MilpaError.isInstance(error)).toBe(true);
    });
  });

  describe('isVerificationError', () => {
    it('returns true for a VerificationError and false for other errors', () => {
      expect(
        VerificationError.isVerificationError(new VerificationError('x', { code: 'FORBIDDEN', kind: 'self_approval', requestId: 'a' })),
      ).toBe(true);
      expect(VerificationError.isVerificationError(new MilpaError('x', { code: 'CONFLICT' }))).toBe(false);
      expect(VerificationError.isVerificationError(Object.assign(new Error('x'), { kind: 'not_found', requestId: 'a' }))).toBe(false);
      expect(VerificationError.isVerificationError(null)).toBe(false);
    });
  });
});
