import { Type } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { dropStrictNulls } from './drop-strict-nulls.js';

const schema = Type.Object({
  id: Type.String(),
  reason: Type.Optional(Type.String()),
  note: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  owner: Type.Union([Type.String(), Type.Null()]),
  rows: Type.Optional(Type.Array(Type.Object({ label: Type.Optional(Type.String()), size: Type.Integer() }))),
});

describe('dropStrictNulls', () => {
  it('drops a null in an optional field that refuses null, at every depth', () => {
    expect(dropStrictNulls(schema, { id: 'n1', reason: null, owner: 'ana', rows: [{ label: null, size: 2 }] })).toEqual({
      id: 'n1',
      owner: 'ana',
      rows: [{ size: 2 }],
    });
  });

  it('keeps a null the field accepts, a null in a required field and fields the schema does not declare', () => {
    expect(dropStrictNulls(schema, { id: null, note: null, owner: null, extra: null })).toEqual({
      id: null,
      note: null,
      owner: null,
      extra: null,
    });
  });

  it('leaves arguments that are not an object as they are', () => {
    expect(dropStrictNulls(schema, 'text')).toBe('text');
    expect(dropStrictNulls(schema, null)).toBeNull();
  });
});
