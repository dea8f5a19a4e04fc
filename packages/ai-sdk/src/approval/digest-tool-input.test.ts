import { describe, expect, it } from 'vitest';
import { digestToolInput } from './digest-tool-input.js';

describe('digestToolInput', () => {
  it('gives equal digests for equal arguments in any key order', async () => {
    expect(await digestToolInput({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(await digestToolInput({ b: { d: 'x', c: [1, 2] }, a: 1 }));
  });

  it('gives different digests for different values, nesting or array order', async () => {
    const base = await digestToolInput({ id: 'n1', tags: ['a', 'b'] });
    expect(await digestToolInput({ id: 'n2', tags: ['a', 'b'] })).not.toBe(base);
    expect(await digestToolInput({ id: 'n1', tags: ['b', 'a'] })).not.toBe(base);
    expect(await digestToolInput({ id: 'n1', tags: ['a', 'b'], extra: null })).not.toBe(base);
    expect(await digestToolInput({ id: { n: 1 } })).not.toBe(await digestToolInput({ id: '{"n":1}' }));
  });

  it('is a 64-character hex SHA-256 digest', async () => {
    expect(await digestToolInput({})).toMatch(/^[0-9a-f]{64}$/);
  });
});
