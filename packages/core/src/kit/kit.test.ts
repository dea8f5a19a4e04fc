import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SENSITIVE_FIELDS,
  SecretNames,
  canonicalJson,
  clipText,
  deepFreeze,
  isRecord,
  messageOf,
  topLevelSecretsOf,
} from './index.js';

describe('canonicalJson', () => {
  it('gives the same text when only the key order differs, at every depth', () => {
    expect(canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] })).toBe('{"a":[2,{"c":4,"d":3}],"b":1}');
    expect(canonicalJson({ a: { y: 1, x: 2 } })).toBe(canonicalJson({ a: { x: 2, y: 1 } }));
  });

  it('gives different text when a value differs', () => {
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: '1' }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });

  it('leaves out undefined members as JSON does, and writes undefined array items as null', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(canonicalJson([undefined])).toBe('[null]');
  });

  it('copies a __proto__ key as data, never as a prototype', () => {
    const hostile = JSON.parse('{"__proto__":{"admin":true},"a":1}') as unknown;
    expect(canonicalJson(hostile)).toBe('{"__proto__":{"admin":true},"a":1}');
  });

  it('writes plain data and everything else exactly as sorting copies through JSON.stringify would', () => {
    const bySortedCopies = (value: unknown): string | null => {
      try {
        const text = JSON.stringify(value, (_key, inner: unknown) => {
          if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) return inner;
          const sorted = Object.create(null) as Record<string, unknown>;
          for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
          return sorted;
        });
        return typeof text === 'string' ? text : null;
      } catch {
        return null;
      }
    };
    const values: unknown[] = [
      { name: 'Ada', count: 3 },
      { z: [1, -0, 1e21, 0.1, Number.NaN, Number.POSITIVE_INFINITY], a: { é: 'x', E: 'y', 'e\u0301': 'z' } },
      { quote: 'a"b\\c\n\u0000\ud800', 'k"ey': true, nested: [[], {}, [null, undefined, () => 1, Symbol('s')]] },
      { 10: 'ten', 9: 'nine', b: 1, a: 2 },
      { 4294967295: 'not an index', a: 1 },
      { when: new Date(0), boxed: new Number(3), text: new String('s') },
      { custom: { toJSON: () => ({ y: 1, x: 2 }) } },
      Object.assign(Object.create(null) as object, { b: 1, a: 2 }),
      new (class Point {
        y = 1;
        x = 2;
      })(),
      { f: undefined, g: () => 1, h: 'kept' },
      'top',
      7,
      null,
      [undefined],
    ];
    for (const value of values) expect(canonicalJson(value)).toBe(bySortedCopies(value));
  });

  it('returns null for a value JSON cannot hold', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(canonicalJson(cycle)).toBeNull();
    expect(canonicalJson({ n: 1n })).toBeNull();
    expect(canonicalJson(undefined)).toBeNull();
  });
});

describe('deepFreeze', () => {
  it('freezes every nested object and array, even inside an already frozen shell', () => {
    const inner = { id: 7 };
    const value = Object.freeze({ user: inner, list: [{ x: 1 }] });
    deepFreeze(value);
    expect(Object.isFrozen(inner)).toBe(true);
    expect(Object.isFrozen(value.list)).toBe(true);
    expect(Object.isFrozen(value.list[0])).toBe(true);
  });

  it('handles cycles and leaves typed arrays writable instead of throwing', () => {
    const cycle: Record<string, unknown> = { bytes: new Uint8Array([1, 2]) };
    cycle['self'] = cycle;
    expect(() => deepFreeze(cycle)).not.toThrow();
    expect(Object.isFrozen(cycle)).toBe(true);
  });
});

describe('isRecord', () => {
  it('accepts objects and refuses null, arrays and primitives', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord(Object.create(null))).toBe(true);
    expect(isRecord(null)).toBe(false);
    expect(isRecord([])).toBe(false);
    expect(isRecord('x')).toBe(false);
  });
});

describe('messageOf', () => {
  it('reads an error message, keeps a string, converts anything else without throwing', () => {
    expect(messageOf(new Error('disk full'))).toBe('disk full');
    expect(messageOf('plain')).toBe('plain');
    expect(messageOf(42)).toBe('42');
    const hostile = {
      toString() {
        throw new Error('no');
      },
    };
    expect(messageOf(hostile)).toBe('an unprintable value');
  });

  it('never throws for an Error whose message getter throws, and names the fallback the caller gives', () => {
    const hostile = new Error('x');
    Object.defineProperty(hostile, 'message', {
      get() {
        throw new Error('no');
      },
    });
    expect(messageOf(hostile)).toBe('an unprintable value');
    expect(messageOf(hostile, 'Unknown error')).toBe('Unknown error');
  });
});

describe('clipText', () => {
  it('keeps text within the bound and cuts longer text, recording its length', () => {
    expect(clipText('short', 10)).toBe('short');
    expect(clipText('x'.repeat(5000), 10)).toBe('xxxxxxxxxx… (5000 characters)');
    expect(clipText('y'.repeat(4_000_000)).length).toBeLessThan(230);
  });

  it('never splits a surrogate pair', () => {
    const clipped = clipText(`${'a'.repeat(9)}😀${'b'.repeat(20)}`, 10);
    expect(clipped).toBe(`${'a'.repeat(9)}… (31 characters)`);
  });
});

describe('SecretNames', () => {
  it('matches the default secret names anywhere in a key, short ones as whole words, and leaves token counts readable', () => {
    const names = new SecretNames(DEFAULT_SENSITIVE_FIELDS);
    expect(['api_key', 'X-Api-Key', 'sessionToken', 'db_pwd'].filter((key) => names.matches(key))).toHaveLength(4);
    expect(['title', 'shipping', 'max_tokens'].filter((key) => names.matches(key))).toEqual([]);
  });
});

describe('topLevelSecretsOf', () => {
  it('marks writeOnly, password-format and x-milpa-secret properties secret, in branches too', () => {
    const secrets = topLevelSecretsOf({
      properties: { a: { writeOnly: true }, b: { format: 'password' }, c: { type: 'string' } },
      anyOf: [{ properties: { d: { 'x-milpa-secret': true } } }],
    });
    expect([...secrets.declared]).toEqual([
      ['a', true],
      ['b', true],
      ['c', false],
      ['d', true],
    ]);
    expect(secrets.undeclaredSecret).toBe(false);
  });
});
