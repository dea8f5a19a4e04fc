import { describe, expect, it } from 'vitest';
import { copyJsonData } from './copy-json-data.js';

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value) as string) as unknown;

describe('copyJsonData', () => {
  it('gives what a JSON round trip gives, for plain data and for everything else', () => {
    const values: unknown[] = [
      { success: true, data: 'ok', message: null, error: null, meta: { tool: 'lookup_note', took_ms: 3 } },
      { numbers: [1, -0, 0.1, Number.NaN, Number.NEGATIVE_INFINITY], nested: { list: [undefined, () => 1, Symbol('s'), null] } },
      { 10: 'ten', 9: 'nine', b: 1, a: 2, skipped: undefined, fn: () => 1 },
      { when: new Date(0), boxed: new Number(3), set: new Set([1]), custom: { toJSON: () => ({ y: 1 }) } },
      Object.assign(Object.create(null) as object, { b: 1 }),
      new (class Point {
        x = 1;
      })(),
      JSON.parse('{"__proto__":{"admin":true},"a":1}') as unknown,
      [1, , 3],
      'text',
      -0,
    ];
    for (const value of values) {
      const copy = copyJsonData(value);
      expect(copy).toStrictEqual(roundTrip(value));
      expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
    }
  });

  it('keeps a __proto__ key as data, never as the prototype of the copy', () => {
    const copy = copyJsonData(JSON.parse('{"__proto__":{"admin":true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect((copy as { admin?: unknown }).admin).toBeUndefined();
  });

  it('shares nothing with the value, so changing the value later leaves the copy as it was', () => {
    const data = { items: [{ id: 1 }], owner: { name: 'Ada' } };
    const copy = copyJsonData(data) as typeof data;
    data.items[0]!.id = 2;
    data.items.push({ id: 3 });
    data.owner.name = 'Grace';
    expect(copy).toEqual({ items: [{ id: 1 }], owner: { name: 'Ada' } });
  });

  it('keeps a frozen object of strings, numbers, booleans and nulls as it is, and copies any other frozen object', () => {
    const meta = Object.freeze({ tool: 'lookup_note', took_ms: 3, replayed: false, run_id: null });
    const result = copyJsonData({ success: true, meta }) as { meta: unknown };
    expect(result.meta).toBe(meta);
    for (const frozen of [
      Object.freeze({ nested: { id: 1 } }),
      Object.freeze({ ratio: Number.NaN }),
      Object.freeze({ zero: -0 }),
      Object.freeze({ gone: undefined }),
    ]) {
      const copy = copyJsonData(frozen);
      expect(copy).not.toBe(frozen);
      expect(copy).toStrictEqual(roundTrip(frozen));
    }
  });

  it('throws as JSON.stringify does for a cycle or a BigInt', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(() => copyJsonData(cycle)).toThrow(TypeError);
    expect(() => copyJsonData({ big: 1n })).toThrow(TypeError);
  });
});
