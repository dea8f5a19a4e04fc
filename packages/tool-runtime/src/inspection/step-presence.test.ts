import { describe, expect, it } from 'vitest';
import { StepPresence } from './step-presence.js';

describe('StepPresence', () => {
  describe('values', () => {
    it('lists active, conditional, dormant and skipped when read', () => {
      expect(StepPresence.values).toEqual(['active', 'conditional', 'dormant', 'skipped']);
    });
  });

  describe('isStepPresence', () => {
    it('rejects the retired value inert when checked', () => {
      expect(StepPresence.isStepPresence('inert')).toBe(false);
    });

    it('accepts every presence and rejects other values when checked', () => {
      for (const presence of StepPresence.values) expect(StepPresence.isStepPresence(presence)).toBe(true);
      for (const value of ['Active', '', null, 1]) expect(StepPresence.isStepPresence(value)).toBe(false);
    });
  });
});
