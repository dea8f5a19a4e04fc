import { describe, expect, it } from 'vitest';
import { ApprovalPolicy } from './approval-policy.js';

describe('ApprovalPolicy', () => {
  it('has the values single, dual, quorum and auto', () => {
    expect([ApprovalPolicy.SINGLE, ApprovalPolicy.DUAL, ApprovalPolicy.QUORUM, ApprovalPolicy.AUTO]).toEqual([
      'single',
      'dual',
      'quorum',
      'auto',
    ]);
    expect(ApprovalPolicy.values).toEqual(['single', 'dual', 'quorum', 'auto']);
    expect(Object.isFrozen(ApprovalPolicy)).toBe(true);
    expect(Object.isFrozen(ApprovalPolicy.values)).toBe(true);
  });

  describe('requiredApprovals', () => {
    it('gives 1, 2, 0 and 0', () => {
      expect(ApprovalPolicy.values.map((policy) => ApprovalPolicy.requiredApprovals(policy))).toEqual([1, 2, 0, 0]);
    });
  });

  describe('isAutomatic', () => {
    it('is true only for auto', () => {
      expect(ApprovalPolicy.values.filter((policy) => ApprovalPolicy.isAutomatic(policy))).toEqual(['auto']);
    });
  });

  describe('isApprovalPolicy', () => {
    it('accepts the four values and nothing else', () => {
      for (const policy of ApprovalPolicy.values) expect(ApprovalPolicy.isApprovalPolicy(policy)).toBe(true);
      expect(ApprovalPolicy.isApprovalPolicy('SINGLE')).toBe(false);
      expect(ApprovalPolicy.isApprovalPolicy('triple')).toBe(false);
      expect(ApprovalPolicy.isApprovalPolicy(1)).toBe(false);
      expect(ApprovalPolicy.isApprovalPolicy(null)).toBe(false);
    });
  });
});
