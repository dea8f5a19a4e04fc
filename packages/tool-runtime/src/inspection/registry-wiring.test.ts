import { MilpaError } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { RegistryWiring } from './registry-wiring.js';

describe('RegistryWiring', () => {
  describe('constructor', () => {
    it('keeps the three flags and the default costs when no costs are given', () => {
      const wiring = new RegistryWiring(true, false, true);
      expect([wiring.hasRateLimiter, wiring.hasDispatcher, wiring.hasRuleProvider]).toEqual([true, false, true]);
      expect(wiring.costs).toEqual({ call: 1, mutating: 5 });
    });

    it('keeps configured costs when the registry charges differently', () => {
      expect(new RegistryWiring(true, true, false, { call: 2, mutating: 10 }).costs).toEqual({ call: 2, mutating: 10 });
    });

    it('copies the costs when the caller later mutates its own object', () => {
      const costs = { call: 2, mutating: 10 };
      const wiring = new RegistryWiring(true, true, false, costs);
      costs.mutating = 0;
      expect(wiring.costs.mutating).toBe(10);
      expect(Object.isFrozen(wiring)).toBe(true);
    });

    it.each([
      ['a non-boolean flag', () => new RegistryWiring('yes' as unknown as boolean, false, false)],
      ['a negative cost', () => new RegistryWiring(true, false, false, { call: -1, mutating: 5 })],
      ['a NaN cost', () => new RegistryWiring(true, false, false, { call: 1, mutating: Number.NaN })],
      ['null costs', () => new RegistryWiring(true, false, false, null as never)],
    ])('throws INVALID_ARGUMENT when given %s', (_label, build) => {
      expect(build).toThrow(MilpaError);
      expect(build).toThrow(/RegistryWiring/);
    });
  });

  describe('costOf', () => {
    it('returns the mutating cost for a mutating tool and the call cost otherwise', () => {
      const wiring = new RegistryWiring(true, false, false, { call: 3, mutating: 7 });
      expect(wiring.costOf(true)).toBe(7);
      expect(wiring.costOf(false)).toBe(3);
    });
  });
});
