import { describe, expect, it } from 'vitest';
import { InvalidSchemaError } from './invalid-schema-error.js';
import { schemaCacheKey } from './schema-cache-key.js';

describe('schemaCacheKey', () => {
  describe('schemaCacheKey', () => {
    it('gives structurally identical schemas the same key when they are different objects', () => {
      const build = () => ({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
      expect(schemaCacheKey(build())).toBe(schemaCacheKey(build()));
    });

    it('renders the schema as compact JSON text', () => {
      const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 0 } }, required: ['n'], additionalProperties: false };
      expect(schemaCacheKey(schema, false)).toBe(JSON.stringify(schema));
    });

    it('ignores key order when sorting keys and keeps it otherwise', () => {
      const first = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } };
      const second = { properties: { b: { type: 'number' }, a: { type: 'string' } }, type: 'object' };
      expect(schemaCacheKey(first)).toBe(schemaCacheKey(second));
      expect(schemaCacheKey(first, false)).not.toBe(schemaCacheKey(second, false));
    });

    it('keeps functions, undefined and array holes apart from null', () => {
      const keys = [{ x: null }, { x: undefined }, { x: () => 1 }].map((schema) => schemaCacheKey(schema));
      expect(new Set(keys).size).toBe(3);
      // eslint-disable-next-line no-sparse-arrays
      expect(schemaCacheKey({ enum: [1, , 3] })).toBe('{"enum":[1,,3]}');
      expect(schemaCacheKey({ enum: [1, null, 3] })).toBe('{"enum":[1,null,3]}');
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
  });
});
