import { describe, expect, it, vi } from 'vitest';
import { MilpaError } from './milpa-error.js';

describe('MilpaError', () => {
  describe('constructor', () => {
    it('keeps the message and code when both are given', () => {
      const error = new MilpaError('bad mode', { code: 'INVALID_MODE' });

      expect(error).toBeInstanceOf(Error);
      expect(error.message).toBe('bad mode');
      expect(error.code).toBe('INVALID_MODE');
      expect(error.name).toBe('MilpaError');
    });

    it('uses the code MILPA_ERROR when no code is given', () => {
      expect(new MilpaError('oops').code).toBe('MILPA_ERROR');
    });

    it('keeps the cause when one is given', () => {
      const cause = new TypeError('root');

      expect(new MilpaError('wrapped', { cause }).cause).toBe(cause);
    });

    it('sets no cause when none is given', () => {
      expect('cause' in new MilpaError('plain')).toBe(false);
    });

    it('names a subclass after the subclass when one is thrown', () => {
      class ToolAlreadyRegisteredError extends MilpaError {}
      const error = new ToolAlreadyRegisteredError('dup', { code: 'TOOL_ALREADY_REGISTERED' });

      expect(error.name).toBe('ToolAlreadyRegisteredError');
      expect(error).toBeInstanceOf(MilpaError);
    });
  });

  describe('isInstance', () => {
    it('returns true for a MilpaError and its subclasses', () => {
      class SubError extends MilpaError {}

      expect(MilpaError.isInstance(new MilpaError('x'))).toBe(true);
      expect(MilpaError.isInstance(new SubError('x'))).toBe(true);
    });

    it('returns false for plain errors, look-alikes and non-objects', () => {
      const lookAlike = Object.assign(new Error('x'), { code: 'INVALID_MODE', name: 'MilpaError' });

      expect(MilpaError.isInstance(new Error('x'))).toBe(false);
      expect(MilpaError.isInstance(lookAlike)).toBe(false);
      expect(MilpaError.isInstance({ code: 'X' })).toBe(false);
      expect(MilpaError.isInstance(null)).toBe(false);
      expect(MilpaError.isInstance(undefined)).toBe(false);
      expect(MilpaError.isInstance('MilpaError')).toBe(false);
    });

    it('recognises an error from a second copy of the module when instanceof does not', async () => {
      vi.resetModules();
      const copy = await import('./milpa-error.js');
      const foreign: unknown = new copy.MilpaError('from another copy', { code: 'X' });

      expect(copy.MilpaError).not.toBe(MilpaError);
      expect(foreign instanceof MilpaError).toBe(false);
      expect(MilpaError.isInstance(foreign)).toBe(true);
    });
  });
});
