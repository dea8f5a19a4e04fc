import { MilpaError } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { InvocationPlan, type InvocationPlanInit } from './invocation-plan.js';
import { InvocationStep } from './invocation-step.js';

function planInit(): InvocationPlanInit {
  return {
    schemaVersion: '1.0',
    operation: 'ping',
    channel: 'web',
    context: { actor: 'u', scopes: ['read'], mode: 'execute' },
    assumptions: [],
    wiring: { rateLimiter: 'absent', dispatcher: 'present', ruleProvider: 'absent' },
    steps: [
      new InvocationStep({
        kind: 'resolve',
        role: 'guard',
        presence: 'active',
        blocking: true,
        mutates: false,
        wraps: null,
        source: 'registry lookup',
      }),
    ],
  };
}

describe('InvocationPlan', () => {
  describe('toJSON', () => {
    it('has the keys schemaVersion, operation, channel, context, assumptions, wiring and steps in that order', () => {
      const json = new InvocationPlan(planInit()).toJSON();
      expect(Object.keys(json)).toEqual(['schemaVersion', 'operation', 'channel', 'context', 'assumptions', 'wiring', 'steps']);
      expect(Object.keys(json.context)).toEqual(['actor', 'scopes', 'mode']);
      expect(Object.keys(json.wiring)).toEqual(['rateLimiter', 'dispatcher', 'ruleProvider']);
      expect(json.steps).toEqual([
        { kind: 'resolve', role: 'guard', presence: 'active', blocking: true, mutates: false, wraps: null, source: 'registry lookup' },
      ]);
    });

    it('round-trips through JSON.stringify when serialized', () => {
      const plan = new InvocationPlan(planInit());
      expect(JSON.parse(JSON.stringify(plan))).toEqual(plan.toJSON());
    });
  });

  describe('constructor', () => {
    it('copies and freezes its lists when the caller later mutates the originals', () => {
      const init = planInit();
      const scopes = ['read'];
      const assumptions: string[] = [];
      const plan = new InvocationPlan({ ...init, context: { ...init.context, scopes }, assumptions });
      scopes.push('admin');
      assumptions.push('invented');
      expect(plan.context.scopes).toEqual(['read']);
      expect(plan.assumptions).toEqual([]);
      expect(Object.isFrozen(plan.steps)).toBe(true);
    });
  });

  describe('constructor: bad input', () => {
    it.each([
      ['a non-string operation', { operation: 7 }],
      ['an unknown mode', { context: { actor: null, scopes: [], mode: 'dry-run' } }],
      ['a non-string scope', { context: { actor: 'u', scopes: [1], mode: 'execute' } }],
      ['a wiring state other than present or absent', { wiring: { rateLimiter: 'yes', dispatcher: 'absent', ruleProvider: 'absent' } }],
      ['a step that is a plain object', { steps: [{ kind: 'resolve' }] }],
      ['assumptions that are not strings', { assumptions: [null] }],
    ])('throws INVALID_ARGUMENT when given %s', (_label, change) => {
      expect(() => new InvocationPlan({ ...planInit(), ...change } as unknown as InvocationPlanInit)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    });
  });

  describe('getStep', () => {
    it('returns the step of the asked kind when the plan has it', () => {
      expect(new InvocationPlan(planInit()).getStep('resolve').source).toBe('registry lookup');
    });

    it('throws STEP_NOT_IN_PLAN when the plan lacks that kind', () => {
      expect(() => new InvocationPlan(planInit()).getStep('audit')).toThrow(expect.objectContaining({ code: 'STEP_NOT_IN_PLAN' }));
    });

    it('throws INVALID_ARGUMENT when the kind is unknown', () => {
      let caught: unknown;
      try {
        new InvocationPlan(planInit()).getStep('lookup' as never);
      } catch (error) {
        caught = error;
      }
      expect(MilpaError.isInstance(caught) && caught.code).toBe('INVALID_ARGUMENT');
    });
  });
});
