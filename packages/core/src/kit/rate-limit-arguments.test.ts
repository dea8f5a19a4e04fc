import { describe, expect, it } from 'vitest';
import { checkRateLimitArguments } from './rate-limit-arguments.js';

describe('checkRateLimitArguments', () => {
  it('accepts a string key, a zero or fractional cost, a fractional window and a zero maximum', () => {
    expect(() => checkRateLimitArguments('web:alice:search', 0, 0.5, 0)).not.toThrow();
    expect(() => checkRateLimitArguments('', 2.5, 60, 100)).not.toThrow();
  });

  it.each([
    [[42, 1, 60, 100], 'Rate limit key must be a string.'],
    [['k', -1, 60, 100], 'Rate limit cost must be a non-negative finite number, got -1.'],
    [['k', Number.NaN, 60, 100], 'Rate limit cost must be a non-negative finite number, got NaN.'],
    [['k', 1, 0, 100], 'Rate limit windowSeconds must be a positive finite number, got 0.'],
    [['k', 1, 60, 10.5], 'Rate limit maxTokens must be a non-negative integer, got 10.5.'],
    [['k', 1, 60, -1], 'Rate limit maxTokens must be a non-negative integer, got -1.'],
  ] as const)('refuses %j with INVALID_ARGUMENT', ([key, cost, windowSeconds, maxTokens], message) => {
    expect(() => checkRateLimitArguments(key, cost, windowSeconds, maxTokens)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message }),
    );
  });
});
