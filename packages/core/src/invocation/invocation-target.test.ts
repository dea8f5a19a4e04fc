import { describe, expect, it } from 'vitest';
import { invocationTarget, isInvocationTarget } from './invocation-target.js';

describe('invocationTarget', () => {
  it('builds a frozen reference and writes a numeric id as a decimal string', () => {
    const target = invocationTarget('note', 42);
    expect(target).toEqual({ kind: 'note', id: '42' });
    expect(Object.isFrozen(target)).toBe(true);
  });

  it.each([
    ['a kind outside the grammar', 'Note', '1'],
    ['an empty id', 'note', ''],
    ['an id longer than 256 characters', 'note', 'x'.repeat(257)],
    ['a non-finite id', 'note', Number.NaN],
    ['an object id', 'note', { secret: 'x' } as unknown as string],
  ])('throws INVALID_ARGUMENT for %s', (_label, kind, id) => {
    expect(() => invocationTarget(kind, id)).toThrow(/invocation target/);
  });
});

describe('isInvocationTarget', () => {
  it('accepts a kind in the grammar and an id of 1 to 256 characters', () => {
    expect(isInvocationTarget({ kind: 'page', id: 'x'.repeat(256) })).toBe(true);
  });

  it.each([null, undefined, 'note:1', { kind: 'note' }, { kind: 'note', id: 1 }, { kind: 'no te', id: '1' }])('rejects %j', (value) => {
    expect(isInvocationTarget(value)).toBe(false);
  });
});
