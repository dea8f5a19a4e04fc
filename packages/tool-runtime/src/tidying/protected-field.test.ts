import { Type } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { isProtectedField, isUnclampableField } from './protected-field.js';

const schema = Type.Object({
  tag: Type.Optional(Type.String({ 'x-milpa-protected': true })),
  loose: Type.Optional(Type.String({ 'x-milpa-protected': 'yes' })),
  page: Type.Optional(Type.Integer()),
  user_id: Type.Optional(Type.Integer()),
}) as unknown as Record<string, unknown>;

describe('isProtectedField', () => {
  it('is true only for a property marked x-milpa-protected: true', () => {
    expect(isProtectedField(schema, 'tag')).toBe(true);
    expect(isProtectedField(schema, 'loose')).toBe(false);
    expect(isProtectedField(schema, 'page')).toBe(false);
  });

  it('is false for a field the schema does not declare, or a schema without properties', () => {
    expect(isProtectedField(schema, 'other')).toBe(false);
    expect(isProtectedField(schema, 'toString')).toBe(false);
    expect(isProtectedField({ type: 'object' }, 'tag')).toBe(false);
    expect(isProtectedField({ type: 'object', properties: { tag: true } }, 'tag')).toBe(false);
  });
});

describe('isUnclampableField', () => {
  it('covers identifier names (declared or not) and protected properties', () => {
    expect(isUnclampableField(schema, 'user_id')).toBe(true);
    expect(isUnclampableField(schema, 'ownerId')).toBe(true);
    expect(isUnclampableField(schema, 'tag')).toBe(true);
    expect(isUnclampableField(schema, 'page')).toBe(false);
  });
});
