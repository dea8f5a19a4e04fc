import { Type } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { isStrictCompatible } from './is-strict-compatible.js';

describe('isStrictCompatible', () => {
  it.each([
    ['an object with optional fields', Type.Object({ id: Type.String(), note: Type.Optional(Type.String()) })],
    ['a closed object', Type.Object({ id: Type.String() }, { additionalProperties: false })],
    [
      'nested objects in arrays and unions',
      Type.Object({
        items: Type.Array(Type.Object({ id: Type.Integer() })),
        pick: Type.Union([Type.Literal('a'), Type.Object({ b: Type.String() })]),
      }),
    ],
    ['an object without fields', Type.Object({})],
  ])('accepts %s', (_name, schema) => {
    expect(isStrictCompatible(schema as never)).toBe(true);
  });

  it.each([
    ['an open object', Type.Object({ id: Type.String() }, { additionalProperties: true })],
    ['a map', Type.Object({ labels: Type.Record(Type.String(), Type.String()) })],
    ['an open object inside an array', Type.Object({ rows: Type.Array(Type.Object({}, { additionalProperties: Type.Number() })) })],
    ['a root that is not an object', { type: 'array', items: { type: 'string' } }],
    ['an object that does not list its properties', { type: 'object' }],
    ['pattern properties', { type: 'object', properties: {}, patternProperties: { '^x-': { type: 'string' } } }],
  ])('refuses %s', (_name, schema) => {
    expect(isStrictCompatible(schema as never)).toBe(false);
  });
});
