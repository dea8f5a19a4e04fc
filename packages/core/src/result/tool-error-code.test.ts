import { describe, expect, it } from 'vitest';
import { ToolErrorCode, isToolErrorCode } from './tool-error-code.js';

describe('ToolErrorCode', () => {
  it(
    'holds the fourteen codes, CONFLICT, the approval codes, ' +
      'STORE_UNAVAILABLE and UPSTREAM_UNAVAILABLE included, each equal to its key',
    () => {
      expect(Object.keys(ToolErrorCode)).toEqual([
        'TOOL_NOT_FOUND',
        'VALIDATION_ERROR',
        'NOT_FOUND',
        'UNAUTHORIZED',
        'FORBIDDEN',
        'CONFIRMATION_REQUIRED',
        'TIMEOUT',
        'INTERNAL_ERROR',
        'RATE_LIMITED',
        'CONFLICT',
        'APPROVAL_DENIED',
        'APPROVAL_PENDING',
        'APPROVAL_INVALID',
        'STORE_UNAVAILABLE',
        'UPSTREAM_UNAVAILABLE',
      ]);
      for (const [key, value] of Object.entries(ToolErrorCode)) expect(value).toBe(key);
    },
  );

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(ToolErrorCode)).toBe(true);
  });
});

describe('isToolErrorCode', () => {
  it('returns true for every code', () => {
    for (const code of Object.values(ToolErrorCode)) expect(isToolErrorCode(code)).toBe(true);
  });

  it('returns false for other strings and non-strings', () => {
    expect(isToolErrorCode('forbidden')).toBe(false);
    expect(isToolErrorCode('INVALID_MODE')).toBe(false);
    expect(isToolErrorCode('')).toBe(false);
    expect(isToolErrorCode(null)).toBe(false);
    expect(isToolErrorCode(403)).toBe(false);
  });
});
