import { describe, expect, it } from 'vitest';
import { fromPlainJsonText, toPlainJsonText } from './plain-json-text.js';

function problemOf(value: unknown): string {
  try {
    toPlainJsonText(value, 'Args');
  } catch (error) {
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT' });
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('toPlainJsonText', () => {
  it('writes plain JSON data as JSON text, repeated (not cyclic) parts included', () => {
    const shared = { a: 1 };
    expect(toPlainJsonText({ x: [shared, shared], y: null, z: 'text', b: true }, 'Args')).toBe(
      '{"x":[{"a":1},{"a":1}],"y":null,"z":"text","b":true}',
    );
  });

  it('refuses, naming the path, what JSON would drop or change', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(problemOf({ when: new Date(0) })).toBe('Args must be plain JSON data: $.when is not a plain object or array.');
    expect(problemOf({ list: [1, Number.POSITIVE_INFINITY] })).toBe('Args must be plain JSON data: $.list[1] is Infinity.');
    expect(problemOf({ f: () => 1 })).toBe('Args must be plain JSON data: $.f is a function.');
    expect(problemOf({ u: undefined })).toBe('Args must be plain JSON data: $.u is a undefined.');
    expect(problemOf({ n: 1n })).toBe('Args must be plain JSON data: $.n is a bigint.');
    expect(problemOf(cyclic)).toBe('Args must be plain JSON data: $.self refers back to itself.');
  });
});

describe('fromPlainJsonText', () => {
  it('parses JSON text into a deeply frozen value', () => {
    const value = fromPlainJsonText('{"a":{"b":[1]}}') as { a: { b: number[] } };
    expect(value).toEqual({ a: { b: [1] } });
    expect(Object.isFrozen(value.a.b)).toBe(true);
  });

  it('answers undefined for text that is not JSON, and for a value that is not text', () => {
    expect(fromPlainJsonText('{not json')).toBeUndefined();
    expect(fromPlainJsonText(42)).toBeUndefined();
  });
});
