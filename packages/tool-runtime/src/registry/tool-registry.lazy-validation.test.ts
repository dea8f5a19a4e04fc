import { type MilpaError, ToolContext, Type, defineTool, type AnyToolDefinition, type JsonSchema } from '@milpa/core';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SchemaValidator, type CompiledValidator } from '../validation/schema-validator.js';
import { ToolRegistry } from './tool-registry.js';

/** Tool number `index` with a schema no other tool shares (names, bounds and pattern of its own). */
function distinctTool(index: number): AnyToolDefinition {
  return defineTool({
    name: `distinct_${index}`,
    description: `Tool ${index}`,
    input: Type.Object(
      {
        [`title_${index}`]: Type.String({ minLength: 1, maxLength: 64 + index }),
        [`count_${index}`]: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 + index })),
        tags: Type.Optional(Type.Array(Type.String({ pattern: `^t${index}-[a-z]+$` }), { maxItems: 8 })),
      },
      { additionalProperties: false },
    ),
    handler: () => index,
  });
}

function countAjvCompiles() {
  return vi.spyOn(Ajv2020.prototype, 'compile');
}

describe('ToolRegistry', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe('register', () => {
    it('compiles no validator when 10,000 tools with distinct schemas are registered', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const compiles = countAjvCompiles();
      for (let index = 0; index < 10_000; index++) registry.register(distinctTool(index));
      expect(compiles).not.toHaveBeenCalled();
      expect(registry.getToolDefinitions()).toHaveLength(10_000);
    });

    it('still throws INVALID_SCHEMA at registration when a schema is invalid', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const typo = defineTool({
        name: 'typo',
        description: 'd',
        input: Type.Object({ a: Type.Unsafe<string>({ type: 'string', maxLenght: 3 }) }),
        handler: () => 1,
      });
      expect(() => registry.register(typo)).toThrow(expect.objectContaining({ code: 'INVALID_SCHEMA' }) as MilpaError);
      const dangling = { ...distinctTool(1), inputSchema: { type: 'object', properties: { id: { $ref: '#/$defs/missing' } } } };
      expect(() => registry.register(dangling)).toThrow(/can't resolve reference/);
      expect(registry.has('typo')).toBe(false);
      expect(registry.has('distinct_1')).toBe(false);
    });

    it('compiles neither schema when a tool with an output schema is registered', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const compiles = countAjvCompiles();
      const outputSchema: JsonSchema = { type: 'object', properties: { id: { type: 'integer' } } };
      registry.register({ ...distinctTool(3), outputSchema });
      expect(compiles).not.toHaveBeenCalled();
    });
  });

  describe('call', () => {
    it('compiles the validator once, on the first call, when the tool is called repeatedly', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(distinctTool(7));
      const compiles = countAjvCompiles();
      expect((await registry.call('distinct_7', { title_7: 'x' })).data).toBe(7);
      expect(compiles).toHaveBeenCalledTimes(1);
      expect((await registry.call('distinct_7', { title_7: 'y', count_7: 3 })).data).toBe(7);
      expect((await registry.call('distinct_7', { title_7: 5 })).error).toBe('title_7: Expected string, got integer');
      expect(compiles).toHaveBeenCalledTimes(1);
    });

    it('shares one compiled validator between tools with identical schemas', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const shape = () => Type.Object({ name: Type.String() });
      registry.register(defineTool({ name: 'a', description: 'd', input: shape(), handler: () => 'a' }));
      registry.register(defineTool({ name: 'b', description: 'd', input: shape(), handler: () => 'b' }));
      const compiles = countAjvCompiles();
      await registry.call('a', { name: 'x' });
      await registry.call('b', { name: 'x' });
      expect(compiles).toHaveBeenCalledTimes(1);
    });

    it('refuses with INTERNAL_ERROR, without throwing, when the first-call compile fails', async () => {
      class BreaksAfterRegistration extends SchemaValidator {
        override compile(): CompiledValidator {
          throw new Error('compiler unavailable');
        }
      }
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), validator: new BreaksAfterRegistration() });
      const handler = vi.fn(() => 1);
      registry.register(defineTool({ name: 'fragile', description: 'd', input: Type.Object({ n: Type.Integer() }), handler }));
      const result = await registry.call('fragile', { n: 1 });
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('INTERNAL_ERROR');
      expect(result.error).toContain('schema validator failed');
      expect(handler).not.toHaveBeenCalled();
    });
  });
});
