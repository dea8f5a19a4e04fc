import { describe, expect, it } from 'vitest';
import { AuthorizationResult } from './authorization-result.js';

describe('AuthorizationResult', () => {
  describe('allow', () => {
    it('returns one shared, frozen allowed verdict with no reason', () => {
      const verdict = AuthorizationResult.allow();
      expect(verdict).toBe(AuthorizationResult.allow());
      expect(verdict.allowed).toBe(true);
      expect(verdict.reason).toBeNull();
      expect(Object.isFrozen(verdict)).toBe(true);
    });
  });

  describe('deny', () => {
    it('returns a frozen denial carrying the reason', () => {
      const verdict = AuthorizationResult.deny('no scope');
      expect(verdict.allowed).toBe(false);
      expect(verdict.reason).toBe('no scope');
      expect(Object.isFrozen(verdict)).toBe(true);
    });
  });
});
