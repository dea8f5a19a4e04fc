import { describe, expect, it } from 'vitest';
import { VerificationContext } from './verification-context.js';

describe('VerificationContext', () => {
  describe('constructor', () => {
    it('defaults to no principal, approvals, evidence or metadata', () => {
      const context = new VerificationContext();

      expect(context.principal).toBeNull();
      expect(context.approvals).toEqual([]);
      expect(context.evidence).toEqual({});
      expect(context.metadata).toEqual({});
      expect(Object.isFrozen(context)).toBe(true);
    });

    it('copies its lists and maps so later edits do not leak in', () => {
      const approvals = ['user:1'];
      const evidence: Record<string, unknown> = {};
      const context = new VerificationContext('user:9', approvals, evidence);
      approvals.push('user:2');
      evidence['ticket'] = 'T-1';

      expect(context.approvalCount()).toBe(1);
      expect(context.hasEvidence()).toBe(false);
    });
  });

  describe('approvalCount', () => {
    it('counts distinct approving principals', () => {
      expect(new VerificationContext(null, ['user:1', 'user:2', 'user:1']).approvalCount()).toBe(2);
    });
  });

  describe('hasEvidence', () => {
    it('is true when evidence is present and false otherwise', () => {
      expect(new VerificationContext(null, [], { ticket: 'T-1' }).hasEvidence()).toBe(true);
      expect(new VerificationContext().hasEvidence()).toBe(false);
    });
  });
});
