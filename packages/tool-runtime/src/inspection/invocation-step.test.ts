import { MilpaError } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { InvocationStep, type InvocationStepInit } from './invocation-step.js';

const boundary: InvocationStepInit = {
  kind: 'contain_exception',
  role: 'boundary',
  presence: 'active',
  blocking: false,
  mutates: false,
  wraps: 'execute',
  source: 'wraps execute; any throw is mapped to INTERNAL_ERROR',
};

describe('InvocationStep', () => {
  describe('toJSON', () => {
    it('returns exactly {kind, role, presence, blocking, mutates, wraps, source} when the step is a boundary', () => {
      const json = new InvocationStep(boundary).toJSON();
      expect(json).toEqual(boundary);
      expect(Object.keys(json)).toEqual(['kind', 'role', 'presence', 'blocking', 'mutates', 'wraps', 'source']);
    });

    it('serializes wraps as null when the step wraps nothing', () => {
      const json = JSON.parse(JSON.stringify(new InvocationStep({ ...boundary, kind: 'audit', role: 'outcome', wraps: null })));
      expect(json.wraps).toBeNull();
    });
  });

  describe('constructor', () => {
    it('freezes the step when built', () => {
      const step = new InvocationStep(boundary);
      expect(Object.isFrozen(step)).toBe(true);
    });

    it.each([
      ['an unknown kind', { kind: 'lookup' }],
      ['an unknown role', { role: 'gate' }],
      ['the retired presence inert', { presence: 'inert' }],
      ['a non-boolean blocking flag', { blocking: 'yes' }],
      ['an unknown wrapped kind', { wraps: 'handler' }],
      ['a non-string source', { source: 42 }],
    ])('throws INVALID_ARGUMENT when given %s', (_label, change) => {
      let caught: unknown;
      try {
        new InvocationStep({ ...boundary, ...change } as unknown as InvocationStepInit);
      } catch (error) {
        caught = error;
      }
      expect(MilpaError.isInstance(caught)).toBe(true);
      expect((caught as MilpaError).code).toBe('INVALID_ARGUMENT');
    });
  });
});
