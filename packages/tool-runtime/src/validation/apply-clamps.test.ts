import type { ClampRule } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { applyClamps } from './apply-clamps.js';

describe('applyClamps', () => {
  describe('numbers', () => {
    it('raises a number below min to min and lowers a number above max to max', () => {
      const clamps = { page: { min: 1, max: 100 } };
      expect(applyClamps({ page: 0 }, clamps)).toEqual({ page: 1 });
      expect(applyClamps({ page: 101 }, clamps)).toEqual({ page: 100 });
      expect(applyClamps({ page: -Infinity }, clamps)).toEqual({ page: 1 });
    });

    it('keeps a number inside or on the bounds when min and max are given', () => {
      const clamps = { page: { min: 1, max: 100 } };
      for (const page of [1, 2, 50, 99, 100]) {
        const args = { page };
        expect(applyClamps(args, clamps)).toBe(args);
      }
    });

    it('bounds only from below when the clamp has only min', () => {
      const clamps = { page: { min: 10 } };
      expect(applyClamps({ page: 3 }, clamps)).toEqual({ page: 10 });
      const high = { page: 1e9 };
      expect(applyClamps(high, clamps)).toBe(high);
    });

    it('bounds only from above when the clamp has only max', () => {
      const clamps = { page: { max: 10 } };
      expect(applyClamps({ page: 30 }, clamps)).toEqual({ page: 10 });
      const low = { page: -1e9 };
      expect(applyClamps(low, clamps)).toBe(low);
    });

    it('leaves NaN alone when the clamp has bounds', () => {
      const args = { page: Number.NaN };
      const clamped = applyClamps(args, { page: { min: 1, max: 100 } });
      expect(clamped).toBe(args);
      expect(clamped['page']).toBeNaN();
    });

    it('leaves a number alone when the clamp has only maxLength', () => {
      const args = { page: 123_456 };
      expect(applyClamps(args, { page: { maxLength: 2 } })).toBe(args);
    });
  });

  describe('strings', () => {
    it('cuts a string longer than maxLength to its first maxLength characters', () => {
      expect(applyClamps({ text: 'abcdef' }, { text: { maxLength: 3 } })).toEqual({ text: 'abc' });
      expect(applyClamps({ text: 'abcd' }, { text: { maxLength: 3 } })).toEqual({ text: 'abc' });
      expect(applyClamps({ text: 'abc' }, { text: { maxLength: 0 } })).toEqual({ text: '' });
    });

    it('returns the arguments themselves when a string is within maxLength', () => {
      for (const text of ['', 'ab', 'abc']) {
        const args = { text };
        expect(applyClamps(args, { text: { maxLength: 3 } })).toBe(args);
      }
    });

    it('leaves a string alone when the clamp has only min and max', () => {
      const args = { text: 'a long enough string' };
      expect(applyClamps(args, { text: { min: 1, max: 2 } })).toBe(args);
      expect(applyClamps(args, { text: {} })).toBe(args);
    });

    it('counts a surrogate pair as one character when cutting', () => {
      // U+10000 (high surrogate 0xD800), U+10FFFF (high surrogate 0xDBFF) and an emoji.
      expect(applyClamps({ text: '\u{10000}\u{10000}\u{10000}' }, { text: { maxLength: 2 } })).toEqual({ text: '\u{10000}\u{10000}' });
      expect(applyClamps({ text: '\u{10FFFF}\u{10FFFF}\u{10FFFF}' }, { text: { maxLength: 2 } })).toEqual({ text: '\u{10FFFF}\u{10FFFF}' });
      expect(applyClamps({ text: 'a😀b😀c' }, { text: { maxLength: 3 } })).toEqual({ text: 'a😀b' });
    });

    it('keeps a string whose code points fit although its UTF-16 length does not', () => {
      const args = { text: '😀😀😀' };
      expect(applyClamps(args, { text: { maxLength: 3 } })).toBe(args);
      expect(applyClamps(args, { text: { maxLength: 4 } })).toBe(args);
    });

    it('counts each character above U+DBFF that is not a surrogate pair as one character', () => {
      // U+FF21 (fullwidth A) and U+E000 (private use) are single UTF-16 units above the high surrogates.
      expect(applyClamps({ text: 'ＡＢＣＤ' }, { text: { maxLength: 2 } })).toEqual({ text: 'ＡＢ' });
      expect(applyClamps({ text: '\uE000\uE001\uE002' }, { text: { maxLength: 1 } })).toEqual({ text: '\uE000' });
      // A lone low surrogate is one unit too.
      expect(applyClamps({ text: '\uDC00\uDC01\uDC02' }, { text: { maxLength: 2 } })).toEqual({ text: '\uDC00\uDC01' });
    });

    it('counts a character just below the high surrogates as one character', () => {
      expect(applyClamps({ text: '\uD7FF\uD7FF\uD7FF' }, { text: { maxLength: 2 } })).toEqual({ text: '\uD7FF\uD7FF' });
    });

    it('keeps a lone high surrogate that ends the string within maxLength', () => {
      const args = { text: 'ab\uD83D' };
      expect(applyClamps(args, { text: { maxLength: 3 } })).toBe(args);
      expect(applyClamps({ text: 'abc\uD83D' }, { text: { maxLength: 3 } })).toEqual({ text: 'abc' });
    });

    it('keeps a high surrogate and the unit after it together at the cut', () => {
      expect(applyClamps({ text: 'a\uD83Dbcd' }, { text: { maxLength: 2 } })).toEqual({ text: 'a\uD83Db' });
    });
  });

  describe('other values', () => {
    it('leaves booleans, arrays and objects alone under a maxLength clamp', () => {
      const args = { flag: true, list: ['aaaa', 'bbbb', 'cccc'], nested: { text: 'abcdef' } };
      const clamps = { flag: { maxLength: 1 }, list: { maxLength: 1 }, nested: { maxLength: 1 } };
      expect(applyClamps(args, clamps)).toBe(args);
    });

    it('leaves booleans and arrays alone under a min/max clamp', () => {
      const args = { flag: false, list: [500] };
      expect(applyClamps(args, { flag: { min: 1, max: 2 }, list: { min: 1, max: 2 } })).toBe(args);
    });

    it('leaves null and undefined fields alone', () => {
      const args = { a: null, b: undefined };
      const clamps = { a: { min: 1, max: 2, maxLength: 1 }, b: { min: 1, max: 2, maxLength: 1 } };
      expect(applyClamps(args, clamps)).toBe(args);
    });
  });

  describe('fields', () => {
    it('returns the arguments themselves when no clamp applies', () => {
      const args = { page: 5, query: 'x' };
      expect(applyClamps(args, {})).toBe(args);
      expect(applyClamps(args, { other: { max: 1 } })).toBe(args);
    });

    it('ignores a field whose clamp is undefined', () => {
      const args = { page: 500 };
      const clamps = { page: undefined } as unknown as Record<string, ClampRule>;
      expect(applyClamps(args, clamps)).toBe(args);
    });

    it('ignores clamp fields inherited through the prototype', () => {
      const clamps = Object.create({ page: { max: 1 } }) as Record<string, ClampRule>;
      const args = { page: 500 };
      expect(applyClamps(args, clamps)).toBe(args);
    });

    it('ignores argument fields inherited through the prototype', () => {
      const args = Object.create({ page: 500 }) as Record<string, unknown>;
      const clamped = applyClamps(args, { page: { max: 1 } });
      expect(clamped).toBe(args);
      expect(Object.hasOwn(clamped, 'page')).toBe(false);
    });

    it('returns a shallow copy with ordinary data fields and leaves the input untouched', () => {
      const nested = { deep: true };
      const args = { page: 500, text: 'abcdef', nested, other: 'kept' };
      const clamped = applyClamps(args, { page: { max: 100 }, text: { maxLength: 2 } });
      expect(clamped).toEqual({ page: 100, text: 'ab', nested, other: 'kept' });
      expect(clamped).not.toBe(args);
      expect(clamped['nested']).toBe(nested);
      expect(args).toEqual({ page: 500, text: 'abcdef', nested, other: 'kept' });
      expect(Object.getOwnPropertyDescriptor(clamped, 'page')).toEqual({
        value: 100,
        writable: true,
        enumerable: true,
        configurable: true,
      });
      expect(Object.getOwnPropertyDescriptor(clamped, 'text')).toEqual({
        value: 'ab',
        writable: true,
        enumerable: true,
        configurable: true,
      });
    });

    it('clamps every clamped field, not only the first that changes', () => {
      expect(applyClamps({ a: 5, b: 5, c: 5 }, { a: { max: 1 }, b: { max: 2 }, c: { max: 3 } })).toEqual({ a: 1, b: 2, c: 3 });
    });

    it('keeps a clamped __proto__ field an own data field and leaves the prototype alone', () => {
      const args = JSON.parse('{"__proto__": 500}') as Record<string, unknown>;
      const clamps = JSON.parse('{"__proto__": {"max": 10}}') as Record<string, ClampRule>;
      const clamped = applyClamps(args, clamps);
      expect(Object.getPrototypeOf(clamped)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(clamped, '__proto__')?.value).toBe(10);
    });
  });
});
