import { describe, expect, it } from 'vitest';
import { MilpaError } from '../errors/milpa-error.js';
import { ApprovalVerdict } from './approval-verdict.js';

describe('ApprovalVerdict', () => {
  describe('allow', () => {
    it('returns one shared frozen verdict with no reason', () => {
      const verdict = ApprovalVerdict.allow();
      expect(verdict).toBe(ApprovalVerdict.allow());
      expect(verdict).toMatchObject({ kind: 'allow', reason: null, expiresAt: null, message: null });
      expect(Object.isFrozen(verdict)).toBe(true);
    });
  });

  describe('deny', () => {
    it('keeps the trimmed reason', () => {
      expect(ApprovalVerdict.deny('  Only admins delete notes. ')).toMatchObject({ kind: 'deny', reason: 'Only admins delete notes.' });
    });

    it.each(['', '   ', 'x'.repeat(501), 42, null])('throws INVALID_ARGUMENT when the reason is %j', (reason) => {
      expect(() => ApprovalVerdict.deny(reason as string)).toThrow(MilpaError);
      expect(() => ApprovalVerdict.deny(reason as string)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    });
  });

  describe('suspend', () => {
    it("copies the expiry so a later change of the caller's Date does not leak in", () => {
      const expiresAt = new Date('2030-01-01T00:00:00Z');
      const verdict = ApprovalVerdict.suspend({ expiresAt, message: 'Waiting for a manager.' });
      expiresAt.setFullYear(2040);
      expect(verdict.kind).toBe('suspend');
      expect(verdict.expiresAt?.toISOString()).toBe('2030-01-01T00:00:00.000Z');
      expect(verdict.message).toBe('Waiting for a manager.');
    });

    it('defaults to no expiry and no message', () => {
      expect(ApprovalVerdict.suspend()).toMatchObject({ kind: 'suspend', expiresAt: null, message: null });
    });

    it('throws INVALID_ARGUMENT for an invalid date or a blank message', () => {
      expect(() => ApprovalVerdict.suspend({ expiresAt: new Date('nope') })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
      expect(() => ApprovalVerdict.suspend({ expiresAt: '2030-01-01' as never })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
      expect(() => ApprovalVerdict.suspend({ message: ' ' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    });
  });

  describe('isApprovalVerdict', () => {
    it('accepts the three built verdicts and look-alikes from another copy', () => {
      expect(ApprovalVerdict.isApprovalVerdict(ApprovalVerdict.allow())).toBe(true);
      expect(ApprovalVerdict.isApprovalVerdict(ApprovalVerdict.deny('no'))).toBe(true);
      expect(ApprovalVerdict.isApprovalVerdict(ApprovalVerdict.suspend())).toBe(true);
      expect(ApprovalVerdict.isApprovalVerdict({ kind: 'deny', reason: 'no' })).toBe(true);
    });

    it.each([
      null,
      undefined,
      true,
      'allow',
      {},
      { kind: 'ALLOW' },
      { kind: 'deny' },
      { kind: 'deny', reason: '  ' },
      { kind: 'suspend', expiresAt: 'tomorrow' },
      { kind: 'suspend', expiresAt: new Date(Number.NaN) },
      { kind: 'suspend', message: 7 },
    ])('rejects garbage %j', (value) => {
      expect(ApprovalVerdict.isApprovalVerdict(value)).toBe(false);
    });
  });
});
