import { Type } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { InvalidSchemaError } from './invalid-schema-error.js';
import { schemaCacheKey } from './schema-cache-key.js';

describe('schemaCacheKey', () => {
  describe('schemaCacheKey', () => {
    it('gives structurally identical schemas the same key when they are different objects', () => {
      const build = () => ({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
      expect(schemaCacheKey(build())).toBe(schemaCacheKey(build()));
    });

    it('gives two TypeBox schemas built alike the same key', () => {
      const build = () => Type.Object({ id: Type.Integer(), tags: Type.Optional(Type.Array(Type.String())) });
      expect(schemaCacheKey(build())).toBe(schemaCacheKey(build()));
      expect(schemaCacheKey(build(), false)).toBe(JSON.stringify(build()));
    });

    it('renders the schema as compact JSON text', () => {
      const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 0 } }, required: ['n'], additionalProperties: false };
      expect(schemaCacheKey(schema, false)).toBe(JSON.stringify(schema));
    });

    it('ignores key order at every depth when sorting keys and keeps it otherwise', () => {
      const first = { type: 'object', properties: { a: { type: 'string', minLength: 1 }, b: { type: 'number' } } };
      const second = { properties: { b: { type: 'number' }, a: { minLength: 1, type: 'string' } }, type: 'object' };
      expect(schemaCacheKey(first)).toBe(schemaCacheKey(second));
      expect(schemaCacheKey(first, false)).not.toBe(schemaCacheKey(second, false));
    });

    it('keeps array order, which is meaningful, when sorting keys', () => {
      expect(schemaCacheKey({ enum: ['a', 'b'] })).not.toBe(schemaCacheKey({ enum: ['b', 'a'] }));
    });

    it('gives a key with an undefined value the key of the schema without it, as ajv reads them alike', () => {
      expect(schemaCacheKey({ type: 'string', description: undefined })).toBe(schemaCacheKey({ type: 'string' }));
    });

    it.each([
      ['a function', { type: 'string', default: () => 'x' }],
      ['NaN', { type: 'number', maximum: Number.NaN }],
      ['Infinity', { type: 'number', maximum: Number.POSITIVE_INFINITY }],
      ['a bigint', { const: 1n }],
      ['an array hole', { enum: [1, , 3] }],
      ['an undefined array item', { enum: [1, undefined, 3] }],
      ['a Date', { const: new Date(0) }],
      ['a class instance', { const: new (class Point {})() }],
    ])('returns no key for a schema holding %s, so it never shares a validator', (_case, schema) => {
      expect(schemaCacheKey(schema)).toBeNull();
      expect(schemaCacheKey(schema, false)).toBeNull();
    });

    it('gives a key to a schema object without a prototype', () => {
      const schema = Object.assign(Object.create(null) as Record<string, unknown>, { type: 'string' });
      expect(schemaCacheKey(schema)).toBe('{"type":"string"}');
    });

    it('accepts an object shared by two branches (a DAG is not a cycle)', () => {
      const shared = { type: 'string' };
      expect(schemaCacheKey({ properties: { a: shared, b: shared } }, false)).toBe(
        '{"properties":{"a":{"type":"string"},"b":{"type":"string"}}}',
      );
    });

    it('throws InvalidSchemaError naming the path where a schema contains itself', () => {
      const schema: Record<string, unknown> = { type: 'object', properties: { items: { type: 'array' } } };
      const items = (schema['properties'] as Record<string, Record<string, unknown>>)['items']!;
      items['items'] = [schema];
      let caught: unknown;
      try {
        schemaCacheKey(schema);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InvalidSchemaError);
      expect((caught as Error).message).toBe(
        'Invalid input schema at #/properties/items/items/0: the schema object is cyclic (use $ref instead).',
      );
    });

    it('names the key through which a schema refers back to itself at the top', () => {
      const schema: Record<string, unknown> = {};
      schema['self'] = schema;
      expect(() => schemaCacheKey(schema)).toThrow('Invalid input schema at #/self: the schema object is cyclic');
    });

    it('reports a cycle even where a function elsewhere would have made the schema keyless', () => {
      const schema: Record<string, unknown> = { default: () => 1, properties: {} };
      (schema['properties'] as Record<string, unknown>)['loop'] = schema;
      expect(() => schemaCacheKey(schema, false)).toThrow(InvalidSchemaError);
    });
  });
});
