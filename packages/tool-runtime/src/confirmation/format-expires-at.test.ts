import { MilpaError } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { formatExpiresAt } from './format-expires-at.js';

describe('formatExpiresAt', () => {
  it('formats ISO-8601 with seconds and a numeric UTC offset', () => {
    expect(formatExpiresAt(new Date('2026-08-15T14:08:11.789Z'))).toBe('2026-08-15T14:08:11+00:00');
  });

  it('throws INVALID_ARGUMENT for an invalid date', () => {
    expect(() => formatExpiresAt(new Date('nope'))).toThrow(MilpaError);
  });
});
