import { describe, expect, it } from 'vitest';
import { InvocationStepKind } from './invocation-step-kind.js';

describe('InvocationStepKind', () => {
  describe('inspectionOrder', () => {
    it('returns the twenty built-in kinds in pipeline order when called', () => {
      expect(InvocationStepKind.inspectionOrder()).toEqual([
        'resolve',
        'tidy',
        'clamp',
        'validate',
        'authorize',
        'idempotency',
        'rules',
        'rate_limit',
        'plan_mode',
        'confirm',
        'approve',
        'rules_replay',
        'emit_executing',
        'execute',
        'contain_exception',
        'cap_result',
        'idempotency_record',
        'history',
        'events',
        'audit',
      ]);
    });

    it('equals the full value list and the constant map when compared', () => {
      expect(InvocationStepKind.inspectionOrder()).toEqual(InvocationStepKind.values);
      const constants = Object.entries(InvocationStepKind)
        .filter(([, value]) => typeof value === 'string')
        .map(([, value]) => value);
      expect(constants).toEqual(InvocationStepKind.values);
    });

    it('cannot be changed by a caller when someone tries to push into it', () => {
      const order = InvocationStepKind.inspectionOrder() as string[];
      expect(() => order.push('extra')).toThrow(TypeError);
      expect(InvocationStepKind.inspectionOrder()).toHaveLength(20);
    });
  });

  describe('isInvocationStepKind', () => {
    it('accepts every kind and rejects anything else when checked', () => {
      for (const kind of InvocationStepKind.values) expect(InvocationStepKind.isInvocationStepKind(kind)).toBe(true);
      for (const value of ['Resolve', 'rate-limit', '', null, 3, 'values']) {
        expect(InvocationStepKind.isInvocationStepKind(value)).toBe(false);
      }
    });
  });
});
