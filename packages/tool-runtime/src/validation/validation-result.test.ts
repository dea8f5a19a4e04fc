import { MilpaError } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { ValidationResult } from './validation-result.js';

describe('ValidationResult', () => {
  describe('VALID', () => {
    it('is a frozen valid result with no errors or issues', () => {
      expect(ValidationResult.VALID.valid).toBe(true);
      expect(ValidationResult.VALID.errors).toEqual([]);
      expect(ValidationResult.VALID.issues).toEqual([]);
      expect(ValidationResult.VALID.getErrorMessage()).toBe('');
      expect(Object.isFrozen(ValidationResult.VALID)).toBe(true);
    });
  });

  describe('invalid', () => {
    it('lists each issue message as an error, in order', () => {
      const result = ValidationResult.invalid([
        { path: 'name', message: 'Missing required field: name' },
        { path: 'age', message: 'age: Expected integer, got string' },
      ]);
      expect(result.valid).toBe(false);
      expect(result.errors).toEqual(['Missing required field: name', 'age: Expected integer, got string']);
      expect(result.issues).toEqual([
        { path: 'name', message: 'Missing required field: name' },
        { path: 'age', message: 'age: Expected integer, got string' },
      ]);
    });

    it('joins the errors with "; " in getErrorMessage', () => {
      const result = ValidationResult.invalid([
        { path: 'a', message: 'first' },
        { path: 'b', message: 'second' },
      ]);
      expect(result.getErrorMessage()).toBe('first; second');
    });

    it('freezes the result and copies the issues so later changes to the input do not leak in', () => {
      const issues = [{ path: 'a', message: 'first' }];
      const result = ValidationResult.invalid(issues);
      issues[0]!.message = 'changed';
      issues.push({ path: 'b', message: 'added' });
      expect(result.errors).toEqual(['first']);
      expect(Object.isFrozen(result)).toBe(true);
      expect(Object.isFrozen(result.errors)).toBe(true);
      expect(Object.isFrozen(result.issues[0])).toBe(true);
    });

    it('throws INVALID_ARGUMENT when no issue is given', () => {
      expect(() => ValidationResult.invalid([])).toThrow(MilpaError);
      expect(() => ValidationResult.invalid([])).toThrow(/at least one issue/);
    });

    it('throws INVALID_ARGUMENT when an issue has no string message', () => {
      const malformed = [{ path: 'a', message: 42 }] as never;
      try {
        ValidationResult.invalid(malformed);
        expect.unreachable();
      } catch (error) {
        expect(MilpaError.isInstance(error) && error.code).toBe('INVALID_ARGUMENT');
      }
    });
  });
});
