import { describe, expect, it } from 'vitest';
import { InvocationStepRole } from './invocation-step-role.js';

describe('InvocationStepRole', () => {
  describe('values', () => {
    it('lists the seven roles in order when read', () => {
      expect(InvocationStepRole.values).toEqual(['guard', 'transform', 'branch', 'hook', 'execution', 'boundary', 'outcome']);
    });
  });

  describe('isInvocationStepRole', () => {
    it('accepts every role and rejects anything else when checked', () => {
      for (const role of InvocationStepRole.values) expect(InvocationStepRole.isInvocationStepRole(role)).toBe(true);
      for (const value of ['Guard', 'gate', '', undefined, {}]) expect(InvocationStepRole.isInvocationStepRole(value)).toBe(false);
    });
  });
});
