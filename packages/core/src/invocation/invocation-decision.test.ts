import { describe, expect, it } from 'vitest';
import { MilpaError } from '../errors/milpa-error.js';
import { InvocationDecision } from './invocation-decision.js';

describe('InvocationDecision', () => {
  describe('allow', () => {
    it('returns one shared, frozen allowing decision', () => {
      expect(InvocationDecision.allow()).toBe(InvocationDecision.allow());
      expect(InvocationDecision.allow()).toMatchObject({ allowed: true, reason: null });
      expect(Object.isFrozen(InvocationDecision.allow())).toBe(true);
    });
  });

  describe('deny', () => {
    it('returns a frozen denial with the reason code', () => {
      const decision = InvocationDecision.deny('outside_site');
      expect(decision).toMatchObject({ allowed: false, reason: 'outside_site' });
      expect(Object.isFrozen(decision)).toBe(true);
    });

    it.each(['Outside site', '', 'denied because id=42', 7])('throws INVALID_ARGUMENT for the reason %j', (reason) => {
      let thrown: unknown;
      try {
        InvocationDecision.deny(reason as string);
      } catch (error) {
        thrown = error;
      }
      expect(MilpaError.isInstance(thrown)).toBe(true);
      expect((thrown as MilpaError).code).toBe('INVALID_ARGUMENT');
      expect((thrown as Error).message).not.toContain('42');
    });
  });

  describe('isInvocationDecision', () => {
    it('recognises decisions by shape, so another copy of the package counts', () => {
      expect(InvocationDecision.isInvocationDecision(InvocationDecision.deny('x'))).toBe(true);
      expect(InvocationDecision.isInvocationDecision({ allowed: true, reason: null })).toBe(true);
      expect(InvocationDecision.isInvocationDecision({ allowed: true })).toBe(true);
      expect(InvocationDecision.isInvocationDecision({ allowed: false, reason: 'too_many' })).toBe(true);
    });

    it.each([
      ['undefined', undefined],
      ['true', true],
      ['a string', 'allow'],
      ['a truthy allowed', { allowed: 1 }],
      ['an allow with a reason', { allowed: true, reason: 'x' }],
      ['a denial without a reason', { allowed: false }],
      ['a denial with free text', { allowed: false, reason: 'Note 42 is outside your folder' }],
    ])('rejects %s', (_label, value) => {
      expect(InvocationDecision.isInvocationDecision(value)).toBe(false);
    });
  });
});
