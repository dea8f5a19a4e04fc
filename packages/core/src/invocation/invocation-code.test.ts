import { describe, expect, it } from 'vitest';
import { INVOCATION_CODE_MAX_LENGTH, isInvocationCode } from './invocation-code.js';

describe('isInvocationCode', () => {
  it.each(['a', 'outside_site', 'notes.max_deletions-per_run', 'r2d2', `a${'b'.repeat(63)}`])('accepts %s', (code) => {
    expect(isInvocationCode(code)).toBe(true);
  });

  it.each([
    ['an empty string', ''],
    ['a leading digit', '1rule'],
    ['a leading underscore', '_rule'],
    ['an upper-case letter', 'Rule'],
    ['a space', 'outside site'],
    ['a colon', 'notes:delete'],
    ['a non-ASCII letter', 'régle'],
    ['65 characters', `a${'b'.repeat(64)}`],
    ['a trailing newline', 'rule\n'],
    ['a number', 42],
    ['null', null],
  ])('rejects %s', (_label, value) => {
    expect(isInvocationCode(value)).toBe(false);
  });

  it('allows at most 64 characters', () => {
    expect(INVOCATION_CODE_MAX_LENGTH).toBe(64);
  });
});
