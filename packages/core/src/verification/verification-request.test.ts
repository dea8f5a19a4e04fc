import { describe, expect, it } from 'vitest';
import { MilpaError } from '../errors/milpa-error.js';
import { VerificationRequest } from './verification-request.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('VerificationRequest', () => {
  describe('constructor', () => {
    it('defaults to policy single, an empty payload and no requester or id', () => {
      const request = new VerificationRequest('gate:proposal.sent');

      expect(request.subject).toBe('gate:proposal.sent');
      expect(request.policy).toBe('single');
      expect(request.payload).toEqual({});
      expect(request.requestedBy).toBeNull();
      expect(request.id).toBeNull();
      expect(Object.isFrozen(request)).toBe(true);
      expect(Object.isFrozen(request.payload)).toBe(true);
    });

    it('keeps every given field', () => {
      const request = new VerificationRequest('gate:x', 'dual', { amount: 5 }, 'user:1', 'req-1');

      expect(request).toMatchObject({ subject: 'gate:x', policy: 'dual', payload: { amount: 5 }, requestedBy: 'user:1', id: 'req-1' });
    });

    it.each(['', '   ', '\t\n'])('throws INVALID_ARGUMENT when the subject is blank (%j)', (subject) => {
      const attempt = () => new VerificationRequest(subject);

      expect(attempt).toThrow(MilpaError);
      expect(attempt).toThrow(
        expect.objectContaining({
          code: 'INVALID_ARGUMENT',
          message:
            'VerificationRequest "subject" must not be empty when provided; pass ' +
            'null (or use ::forResolution()) for a resolve-only reconstruction.',
        }),
      );
    });

    it('allows a null subject with an id', () => {
      const request = new VerificationRequest(null, 'single', {}, null, 'req-1');

      expect(request.subject).toBeNull();
      expect(request.id).toBe('req-1');
    });

    it('throws INVALID_ARGUMENT when the policy is unknown', () => {
      expect(() => new VerificationRequest('gate:x', 'triple' as never)).toThrow(
        expect.objectContaining({
          code: 'INVALID_ARGUMENT',
          message: "VerificationRequest policy must be one of single, dual, quorum, auto; got 'triple'.",
        }),
      );
    });

    it('throws INVALID_ARGUMENT when the subject is not a string', () => {
      expect(() => new VerificationRequest(42 as never)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'VerificationRequest "subject" must be a string or null.' }),
      );
    });
  });

  describe('withGeneratedId', () => {
    it('sets a UUID v4 id', () => {
      expect(VerificationRequest.withGeneratedId('gate:x').id).toMatch(UUID_V4);
    });

    it('gives two requests with the same subject different ids', () => {
      const first = VerificationRequest.withGeneratedId('gate:x');
      const second = VerificationRequest.withGeneratedId('gate:x');

      expect(first.id).not.toBe(second.id);
    });

    it('keeps policy, payload and requester', () => {
      const request = VerificationRequest.withGeneratedId('gate:x', 'quorum', { n: 3 }, 'user:1');

      expect(request).toMatchObject({ subject: 'gate:x', policy: 'quorum', payload: { n: 3 }, requestedBy: 'user:1' });
    });

    it('rejects a blank subject', () => {
      expect(() => VerificationRequest.withGeneratedId(' ')).toThrow(MilpaError);
    });
  });

  describe('forResolution', () => {
    it('has a null subject, the given id and policy single by default', () => {
      const request = VerificationRequest.forResolution('req-123');

      expect(request.subject).toBeNull();
      expect(request.id).toBe('req-123');
      expect(request.policy).toBe('single');
    });

    it('keeps a given policy', () => {
      expect(VerificationRequest.forResolution('req-123', 'dual').policy).toBe('dual');
    });

    it.each(['', '  ', null])('throws INVALID_ARGUMENT when the id is %j', (id) => {
      expect(() => VerificationRequest.forResolution(id as string)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'VerificationRequest::forResolution() requires a non-empty "id".' }),
      );
    });
  });
});
