import { describe, expect, it } from 'vitest';
import { VerificationResult } from './verification-result.js';

describe('VerificationResult', () => {
  describe('pass', () => {
    it('is satisfied and final with the verifier, principal and metadata', () => {
      const result = VerificationResult.pass('human_verifier', 'user:1', { reason: 'ok' });

      expect(result.status).toBe('passed');
      expect(result.isSatisfied()).toBe(true);
      expect(result.isFinal()).toBe(true);
      expect(result.isPending()).toBe(false);
      expect(result.verifier).toBe('human_verifier');
      expect(result.principal).toBe('user:1');
      expect(result.metadata).toEqual({ reason: 'ok' });
      expect(result.reason).toBeNull();
      expect(result.hasMissing()).toBe(false);
    });
  });

  describe('fail', () => {
    it('carries a reason and what is missing, and is final but not satisfied', () => {
      const result = VerificationResult.fail('Missing approvals', ['user:2'], 'human_verifier', { round: 1 }, 'user:1');

      expect(result.status).toBe('failed');
      expect(result.reason).toBe('Missing approvals');
      expect(result.missing).toEqual(['user:2']);
      expect(result.hasMissing()).toBe(true);
      expect(result.isSatisfied()).toBe(false);
      expect(result.isFinal()).toBe(true);
      expect(result.verifier).toBe('human_verifier');
      expect(result.principal).toBe('user:1');
      expect(result.metadata).toEqual({ round: 1 });
    });

    it('has nothing missing by default', () => {
      expect(VerificationResult.fail('no').hasMissing()).toBe(false);
    });
  });

  describe('waived', () => {
    it('is satisfied and final with its reason and metadata', () => {
      const result = VerificationResult.waived('Emergency change', 'user:9', 'policy', { ticket: 'INC-1' });

      expect(result.status).toBe('waived');
      expect(result.isSatisfied()).toBe(true);
      expect(result.isFinal()).toBe(true);
      expect(result.reason).toBe('Emergency change');
      expect(result.principal).toBe('user:9');
      expect(result.verifier).toBe('policy');
      expect(result.metadata).toEqual({ ticket: 'INC-1' });
    });
  });

  describe('pending', () => {
    it('is neither satisfied nor final', () => {
      const result = VerificationResult.pending('human_verifier', { request_id: 'r-1' });

      expect(result.status).toBe('pending');
      expect(result.isPending()).toBe(true);
      expect(result.isSatisfied()).toBe(false);
      expect(result.isFinal()).toBe(false);
      expect(result.principal).toBeNull();
      expect(result.metadata).toEqual({ request_id: 'r-1' });
    });
  });

  describe('immutability', () => {
    it('freezes the result and copies of its lists', () => {
      const missing = ['a'];
      const result = VerificationResult.fail('no', missing);
      missing.push('b');

      expect(Object.isFrozen(result)).toBe(true);
      expect(Object.isFrozen(result.missing)).toBe(true);
      expect(Object.isFrozen(result.metadata)).toBe(true);
      expect(result.missing).toEqual(['a']);
    });
  });

  describe('toJSON', () => {
    it('gives status as its string value and every field in order', () => {
      const json = VerificationResult.fail('no', ['x'], 'v', { k: 1 }, 'p').toJSON();

      expect(Object.keys(json)).toEqual(['status', 'reason', 'verifier', 'principal', 'missing', 'metadata']);
      expect(json).toEqual({ status: 'failed', reason: 'no', verifier: 'v', principal: 'p', missing: ['x'], metadata: { k: 1 } });
      expect(JSON.parse(JSON.stringify(VerificationResult.pending()))).toMatchObject({ status: 'pending' });
    });
  });
});
