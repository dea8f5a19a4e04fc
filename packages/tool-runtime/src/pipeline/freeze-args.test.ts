import { describe, expect, it } from 'vitest';
import { freezeArgs } from './freeze-args.js';

describe('freezeArgs', () => {
  it('returns an equal, frozen copy when the arguments are flat', () => {
    const args = { name: 'Ada', n: 3, ok: true, none: null };
    const frozen = freezeArgs(args);
    expect(frozen).toEqual(args);
    expect(frozen).not.toBe(args);
    expect(Object.isFrozen(frozen)).toBe(true);
    expect(Object.isFrozen(args)).toBe(false);
  });

  it('freezes every nested object and array and leaves the original writable', () => {
    const args = { user: { tags: ['a', { deep: 1 }] } };
    const frozen = freezeArgs(args) as typeof args;
    expect(frozen).toEqual(args);
    expect(Object.isFrozen(frozen.user)).toBe(true);
    expect(Object.isFrozen(frozen.user.tags)).toBe(true);
    expect(Object.isFrozen(frozen.user.tags[1])).toBe(true);
    expect(Array.isArray(frozen.user.tags)).toBe(true);
    args.user.tags.push('b');
    expect(frozen.user.tags).toHaveLength(2);
  });

  it('copies a value shared along many paths once, so 2^40 paths stay cheap', () => {
    let node: Record<string, unknown> = { leaf: true };
    for (let level = 0; level < 40; level++) node = { left: node, right: node };
    const frozen = freezeArgs(node) as { left: unknown; right: unknown };
    expect(frozen.left).toBe(frozen.right);
  });

  it('keeps a cycle a cycle', () => {
    const args: Record<string, unknown> = { name: 'loop' };
    args['self'] = args;
    const frozen = freezeArgs(args);
    expect(frozen['self']).toBe(frozen);
    expect(Object.isFrozen(frozen)).toBe(true);
  });

  it('copies 100,000 levels of nesting without overflowing the stack', () => {
    let node: Record<string, unknown> = {};
    for (let level = 0; level < 100_000; level++) node = { next: node };
    let frozen = freezeArgs(node) as { next?: unknown };
    let depth = 0;
    while (frozen.next !== undefined) {
      expect(Object.isFrozen(frozen)).toBe(true);
      frozen = frozen.next as { next?: unknown };
      depth++;
    }
    expect(depth).toBe(100_000);
  });

  it('keeps a __proto__ key as data and never changes the copy\'s prototype', () => {
    const args = JSON.parse('{"__proto__": {"admin": true}, "nested": {"__proto__": {"admin": true}}}') as Record<string, unknown>;
    const frozen = freezeArgs(args) as Record<string, Record<string, unknown>>;
    expect(Object.getPrototypeOf(frozen)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(frozen['nested'])).toBe(Object.prototype);
    expect((frozen as Record<string, unknown>)['admin']).toBeUndefined();
    expect(Object.keys(frozen)).toEqual(['__proto__', 'nested']);
    expect(Object.getOwnPropertyDescriptor(frozen, '__proto__')?.value).toEqual({ admin: true });
  });

  it('keeps instances it cannot copy faithfully (Date, Map, class instances) by reference', () => {
    class Money {
      constructor(readonly cents: number) {}
    }
    const when = new Date(0);
    const map = new Map([['a', 1]]);
    const money = new Money(5);
    const frozen = freezeArgs({ when, map, money });
    expect(frozen['when']).toBe(when);
    expect(frozen['map']).toBe(map);
    expect(frozen['money']).toBe(money);
    expect(Object.isFrozen(frozen)).toBe(true);
  });
});
