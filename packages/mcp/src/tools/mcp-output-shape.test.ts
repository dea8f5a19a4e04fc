import { describe, expect, it } from 'vitest';
import { resolveMcpOutputShape } from './mcp-output-shape.js';

describe('resolveMcpOutputShape', () => {
  it('is null without an output schema', () => {
    expect(resolveMcpOutputShape(null)).toBeNull();
  });

  it('lists an object schema as is', () => {
    const schema = { type: 'object', properties: { sum: { type: 'number' } } };
    expect(resolveMcpOutputShape(schema)).toEqual({ listedSchema: schema, wrapped: false });
    expect(resolveMcpOutputShape(schema)?.listedSchema).toBe(schema);
  });

  it('adds type object to an untyped schema that declares properties', () => {
    expect(resolveMcpOutputShape({ properties: { a: { type: 'string' } } })).toEqual({
      listedSchema: { type: 'object', properties: { a: { type: 'string' } } },
      wrapped: false,
    });
  });

  it.each([{ type: 'array', items: { type: 'string' } }, { type: 'string' }, {}, { anyOf: [{ type: 'string' }, { type: 'number' }] }])(
    'wraps the non-object schema %j as { result }',
    (schema) => {
      expect(resolveMcpOutputShape(schema)).toEqual({
        listedSchema: { type: 'object', properties: { result: schema }, required: ['result'] },
        wrapped: true,
      });
    },
  );

  it('returns the same shape for the same schema, so validators compile once', () => {
    const schema = { type: 'array' };
    expect(resolveMcpOutputShape(schema)).toBe(resolveMcpOutputShape(schema));
  });
});
