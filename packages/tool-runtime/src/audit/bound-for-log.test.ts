import { describe, expect, it } from 'vitest';
import { boundForLog } from './bound-for-log.js';
import { mapStrings } from './map-strings.js';

describe('boundForLog', () => {
  it('cuts keys over 100 and strings over 1,000 characters at any depth, noting their length', () => {
    const bounded = boundForLog({ ['k'.repeat(4000)]: 'v', list: [{ note: 'x'.repeat(5000) }] }) as Record<string, unknown>;
    expect(Object.keys(bounded)[0]).toBe(`${'k'.repeat(100)}… (4000 characters)`);
    expect(bounded['list']).toEqual([{ note: `${'x'.repeat(1000)}… (5000 characters)` }]);
  });

  it('gives back the same object when nothing needs cutting', () => {
    const small = { a: 'b', nested: [1, { c: 'd' }] };
    expect(boundForLog(small)).toBe(small);
  });
});

describe('mapStrings', () => {
  it('copies only the branches that change and keeps a __proto__ key as an ordinary field', () => {
    const kept = { untouched: { deep: 'same' } };
    const value = JSON.parse('{"__proto__":{"x":"a"},"other":"a"}') as Record<string, unknown>;
    const mapped = mapStrings({ ...value, kept }, { value: (text) => (text === 'a' ? 'A' : text), key: (name) => name }) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(mapped)).toBe(Object.prototype);
    expect(Object.keys(mapped)).toContain('__proto__');
    expect(mapped['other']).toBe('A');
    expect(mapped['kept']).toBe(kept);
  });

  it('hands each mapper the walk state, and keeps the holes of an array it copies', () => {
    const sparse: unknown[] = ['a'];
    sparse[2] = 'b';
    const mapped = mapStrings(
      { list: sparse },
      { value: (text, suffix: string) => `${text}${suffix}`, key: (name, suffix: string) => `${name}${suffix}` },
      '!',
    ) as Record<string, unknown[]>;
    const list = mapped['list!'] as unknown[];
    expect(list).toHaveLength(3);
    expect(1 in list).toBe(false);
    expect(list[0]).toBe('a!');
    expect(list[2]).toBe('b!');
  });
});
