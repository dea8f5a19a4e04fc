import { describe, expect, it } from 'vitest';
import { Type } from '@milpa/core';
import { compileArgsFreezer, freezeArgs } from './freeze-args.js';

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

  it("keeps a __proto__ key as data and never changes the copy's prototype", () => {
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

describe('compileArgsFreezer', () => {
  const closed = Type.Object(
    {
      name: Type.String(),
      count: Type.Optional(Type.Integer()),
      mode: Type.Union([Type.Literal('a'), Type.Literal('b')]),
      note: Type.Union([Type.String(), Type.Null()]),
    },
    { additionalProperties: false },
  );

  it('builds a specialised copier for a closed schema of primitives, with the same result as freezeArgs', () => {
    const freeze = compileArgsFreezer(closed);
    expect(freeze).not.toBe(freezeArgs);
    const args = { name: 'x', mode: 'a', note: null };
    const frozen = freeze(args);
    expect(frozen).toEqual(freezeArgs(args));
    expect(Object.isFrozen(frozen)).toBe(true);
    expect(frozen).not.toBe(args);
    expect('count' in frozen).toBe(false);
  });

  it.each([
    ['an open schema', Type.Object({ name: Type.String() })],
    ['a nested object', Type.Object({ user: Type.Object({ id: Type.String() }) }, { additionalProperties: false })],
    ['an array property', Type.Object({ ids: Type.Array(Type.Integer()) }, { additionalProperties: false })],
    ['a property of any type', Type.Object({ anything: Type.Unknown() }, { additionalProperties: false })],
    [
      'pattern properties',
      { type: 'object', properties: { a: { type: 'string' } }, patternProperties: { '^x': {} }, additionalProperties: false },
    ],
    ['a __proto__ property', { type: 'object', properties: { ['__proto__']: { type: 'string' } }, additionalProperties: false }],
    ['no properties', { type: 'object', additionalProperties: false }],
  ])('falls back to freezeArgs for %s', (_label, schema) => {
    expect(compileArgsFreezer(schema)).toBe(freezeArgs);
  });

  it('copies property names that look like code as plain names, and runs none of them', () => {
    const hostile = 'x"]; globalThis.__milpaInjected = true; //';
    const names = [hostile, 'new\nline', "it's", '\\', 'a b', ''];
    const schema = {
      type: 'object',
      properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
      additionalProperties: false,
    };
    const args = Object.fromEntries(names.map((name, index) => [name, `v${index}`]));
    const frozen = compileArgsFreezer(schema)(args);
    expect(frozen).toEqual(args);
    expect((globalThis as Record<string, unknown>)['__milpaInjected']).toBeUndefined();
  });
});
