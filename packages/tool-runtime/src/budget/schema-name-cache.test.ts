import { describe, expect, it } from 'vitest';
import { SchemaNameCache } from './schema-name-cache.js';

describe('SchemaNameCache', () => {
  describe('get', () => {
    it('returns undefined when nothing was stored for the schema or the name', () => {
      const cache = new SchemaNameCache<number>();
      const schema = {};
      expect(cache.get(schema, 'a')).toBeUndefined();
      cache.set(schema, 'a', 1);
      expect(cache.get(schema, 'b')).toBeUndefined();
      expect(cache.get({}, 'a')).toBeUndefined();
    });
  });

  describe('set', () => {
    it('replaces the value of the same schema and name', () => {
      const cache = new SchemaNameCache<number>();
      const schema = {};
      cache.set(schema, 'a', 1);
      cache.set(schema, 'a', 2);
      expect(cache.get(schema, 'a')).toBe(2);
    });

    it('keeps every name apart when tools share a schema', () => {
      const cache = new SchemaNameCache<string>();
      const shared = {};
      for (const name of ['a', 'b', 'c']) cache.set(shared, name, name.toUpperCase());
      cache.set(shared, 'b', 'B2');
      expect(['a', 'b', 'c', 'd'].map((name) => cache.get(shared, name))).toEqual(['A', 'B2', 'C', undefined]);
    });
  });
});
