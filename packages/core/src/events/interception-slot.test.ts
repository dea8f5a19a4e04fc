import { describe, expect, it, vi } from 'vitest';
import { InterceptionSlot } from './interception-slot.js';

describe('InterceptionSlot', () => {
  describe('initial state', () => {
    it('is not stopped, has no result and returns null as result', () => {
      const slot = new InterceptionSlot();

      expect(slot.isStopped()).toBe(false);
      expect(slot.hasResult()).toBe(false);
      expect(slot.getResult()).toBeNull();
    });
  });

  describe('stop', () => {
    it('stops without setting a result', () => {
      const slot = new InterceptionSlot();
      slot.stop();

      expect(slot.isStopped()).toBe(true);
      expect(slot.hasResult()).toBe(false);
      expect(slot.getResult()).toBeNull();
    });

    it('keeps an earlier short-circuit result', () => {
      const slot = new InterceptionSlot<string>();
      slot.shortCircuit('cached');
      slot.stop();

      expect(slot.isStopped()).toBe(true);
      expect(slot.hasResult()).toBe(true);
      expect(slot.getResult()).toBe('cached');
    });
  });

  describe('shortCircuit', () => {
    it('sets the result and stops in one step', () => {
      const slot = new InterceptionSlot<{ hit: boolean }>();
      const value = { hit: true };
      slot.shortCircuit(value);

      expect(slot.isStopped()).toBe(true);
      expect(slot.hasResult()).toBe(true);
      expect(slot.getResult()).toBe(value);
    });

    it.each([null, 0, '', false])('counts the falsy value %j as a result', (value) => {
      const slot = new InterceptionSlot<unknown>();
      slot.shortCircuit(value);

      expect(slot.hasResult()).toBe(true);
      expect(slot.getResult()).toBe(value);
    });

    it('overwrites the result when called again', () => {
      const slot = new InterceptionSlot<number>();
      slot.shortCircuit(1);
      slot.shortCircuit(2);

      expect(slot.getResult()).toBe(2);
      expect(slot.isStopped()).toBe(true);
    });
  });

  describe('state', () => {
    it('offers no way to un-stop or set a result without stopping', () => {
      const slot = new InterceptionSlot();
      slot.stop();

      expect(Object.keys(slot)).toEqual([]);
      expect(Object.getOwnPropertyNames(InterceptionSlot.prototype).sort()).toEqual(
        ['constructor', 'getResult', 'hasResult', 'isStopped', 'shortCircuit', 'stop'].sort(),
      );
      (slot as unknown as { stopped: boolean }).stopped = false;
      expect(slot.isStopped()).toBe(true);
    });
  });

  describe('isInstance', () => {
    it('returns true for slots and false for look-alikes', () => {
      const lookAlike = { stop() {}, shortCircuit() {}, isStopped: () => true, hasResult: () => false, getResult: () => null };

      expect(InterceptionSlot.isInstance(new InterceptionSlot())).toBe(true);
      expect(InterceptionSlot.isInstance(lookAlike)).toBe(false);
      expect(InterceptionSlot.isInstance(null)).toBe(false);
      expect(InterceptionSlot.isInstance('slot')).toBe(false);
    });

    it('recognises a slot from a second copy of the module when instanceof does not', async () => {
      vi.resetModules();
      const copy = await import('./interception-slot.js');
      const foreign: unknown = new copy.InterceptionSlot();

      expect(foreign instanceof InterceptionSlot).toBe(false);
      expect(InterceptionSlot.isInstance(foreign)).toBe(true);
    });
  });
});
