import { MilpaError } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { normalizeBasePath } from './normalize-base-path.js';

describe('normalizeBasePath', () => {
  it('returns / when no base path is given', () => {
    expect(normalizeBasePath(undefined)).toBe('/');
  });

  it('adds the trailing slash when the path lacks one', () => {
    expect(normalizeBasePath('/approvals')).toBe('/approvals/');
    expect(normalizeBasePath('/approvals/')).toBe('/approvals/');
  });

  it('throws INVALID_ARGUMENT when the path is relative or holds a query, a fragment or blanks', () => {
    for (const bad of ['approvals', '/a?b', '/a#b', '/a b']) {
      expect(() => normalizeBasePath(bad)).toThrow(MilpaError);
    }
  });
});
