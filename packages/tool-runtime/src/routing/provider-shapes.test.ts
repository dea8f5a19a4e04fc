import { Type, defineTool, type JsonSchema } from '@milpa/core';
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  OPENAI_STYLE_PROVIDERS,
  ProviderToolShapes,
  resolveProviderShape,
  toProviderTool,
  type AnthropicTool,
  type McpTool,
  type OpenAiTool,
  type ProviderTool,
  type ProviderToolSource,
} from './provider-shapes.js';

const pingSchema: JsonSchema = { type: 'object', properties: { host: { type: 'string' } }, required: ['host'] };
const ping: ProviderToolSource = { name: 'ping', description: 'Checks a host.', inputSchema: pingSchema };

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe('resolveProviderShape', () => {
  it.each(OPENAI_STYLE_PROVIDERS)('returns openai when the provider is %s', (provider) => {
    expect(resolveProviderShape(provider)).toBe('openai');
  });

  it.each([
    ['OpenAI', 'openai'],
    [' GROQ ', 'openai'],
    ['Gemini', 'openai'],
    ['MCP', 'mcp'],
    ['anthropic', 'anthropic'],
    ['bedrock', 'anthropic'],
    ['no-such-provider', 'anthropic'],
    ['', 'anthropic'],
  ])('ignores case and maps %j to %s, unknown names to the Anthropic shape', (provider, shape) => {
    expect(resolveProviderShape(provider)).toBe(shape);
  });

  it('throws INVALID_ARGUMENT when the provider is not a string', () => {
    expect(() => resolveProviderShape(undefined as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});

describe('toProviderTool', () => {
  describe('shapes', () => {
    it('returns { type: function, function: { name, description, parameters } } when the provider is OpenAI-style', () => {
      for (const provider of [...OPENAI_STYLE_PROVIDERS, 'OpenAI']) {
        expect(toProviderTool(ping, provider)).toEqual({
          type: 'function',
          function: { name: 'ping', description: 'Checks a host.', parameters: pingSchema },
        });
      }
    });

    it('returns { name, description, input_schema } when the provider is anthropic or unknown', () => {
      for (const provider of ['anthropic', 'Anthropic', 'vertex-claude', 'whatever']) {
        expect(toProviderTool(ping, provider)).toEqual({ name: 'ping', description: 'Checks a host.', input_schema: pingSchema });
      }
    });

    it('returns the MCP listing with title, output schema and annotations when the provider is mcp', () => {
      const source: ProviderToolSource = {
        ...ping,
        title: 'Ping',
        outputSchema: { type: 'object', properties: { ms: { type: 'number' } } },
        annotations: { openWorldHint: true },
      };
      expect(toProviderTool(source, 'mcp')).toEqual({
        name: 'ping',
        title: 'Ping',
        description: 'Checks a host.',
        inputSchema: pingSchema,
        outputSchema: { type: 'object', properties: { ms: { type: 'number' } } },
        annotations: { openWorldHint: true },
      });
    });

    it('lists a registry summary for MCP with exactly its name, description and schema', () => {
      expect(Object.keys(toProviderTool(ping, 'mcp'))).toEqual(['name', 'description', 'inputSchema']);
    });

    it('derives MCP hints from mutating and leaves out an output schema whose root is not an object', () => {
      const definition = defineTool({
        name: 'delete_note',
        title: 'Delete note',
        description: 'Deletes a note.',
        input: Type.Object({ id: Type.String() }),
        outputSchema: { type: 'string' },
        mutating: true,
        handler: () => 'deleted',
      });
      const tool = toProviderTool(definition, 'mcp');
      expect(tool.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, title: 'Delete note' });
      expect(tool.title).toBe('Delete note');
      expect(tool).not.toHaveProperty('outputSchema');
      const readOnly = defineTool({ name: 'read_note', description: 'Reads a note.', handler: () => 'text' });
      expect(toProviderTool(readOnly, 'mcp').annotations).toEqual({ readOnlyHint: true });
      expect(toProviderTool(readOnly, 'mcp')).not.toHaveProperty('title');
    });

    it('derives destructive MCP hints for a tool whose mutability depends on its arguments', () => {
      const shell = defineTool({
        name: 'shell_exec',
        description: 'Runs a command.',
        input: Type.Object({ command: Type.String() }),
        mutating: ({ command }) => command !== 'ls',
        handler: () => '',
      });
      expect(toProviderTool(shell, 'mcp').annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    });

    it('returns frozen tools, so one caller cannot change what another is sent', () => {
      const tool = toProviderTool(ping, 'openai');
      expect(Object.isFrozen(tool)).toBe(true);
      expect(Object.isFrozen(tool.function)).toBe(true);
    });

    it('types the result by provider name, case included', () => {
      expectTypeOf(toProviderTool(ping, 'openai')).toEqualTypeOf<OpenAiTool>();
      expectTypeOf(toProviderTool(ping, 'OpenAI')).toEqualTypeOf<OpenAiTool>();
      expectTypeOf(toProviderTool(ping, 'anthropic')).toEqualTypeOf<AnthropicTool>();
      expectTypeOf(toProviderTool(ping, 'mcp')).toEqualTypeOf<McpTool>();
      expectTypeOf(toProviderTool(ping, 'ollama' as string)).toEqualTypeOf<ProviderTool>();
      expectTypeOf(toProviderTool(ping, 'groq' as 'groq' | 'mcp')).toEqualTypeOf<OpenAiTool | McpTool>();
    });
  });

  describe('input schema', () => {
    it.each([
      ['missing', { type: 'object' }],
      ['an empty array', { type: 'object', properties: [] }],
      ['already {}', { type: 'object', properties: {} }],
    ])('emits properties as {} when they are %s', (_label, schema) => {
      const source = { name: 'now', description: 'The time.', inputSchema: schema as JsonSchema };
      const openAi = toProviderTool(source, 'openai');
      expect(openAi.function.parameters).toEqual({ type: 'object', properties: {} });
      expect(JSON.stringify(openAi)).toContain('"properties":{}');
      expect(toProviderTool(source, 'anthropic').input_schema).toEqual({ type: 'object', properties: {} });
      expect(toProviderTool(source, 'mcp').inputSchema).toEqual({ type: 'object', properties: {} });
    });

    it('adds type object when the schema has none', () => {
      const source = { name: 'now', description: 'The time.', inputSchema: { properties: { zone: { type: 'string' } } } };
      expect(toProviderTool(source, 'openai').function.parameters).toEqual({ type: 'object', properties: { zone: { type: 'string' } } });
    });

    it('never changes the given schema, and shares it when it needs no fix', () => {
      const empty = deepFreeze({ type: 'object', properties: [] as unknown[], additionalProperties: false });
      const tool = toProviderTool({ name: 'now', description: 'The time.', inputSchema: empty as JsonSchema }, 'anthropic');
      expect(empty.properties).toEqual([]);
      expect(tool.input_schema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
      expect(toProviderTool(ping, 'anthropic').input_schema).toBe(pingSchema);
    });

    it('always sends an object properties and leaves the source as it was, for any schema', () => {
      const properties = fc.oneof(
        fc.constant(undefined),
        fc.constant([]),
        fc.array(fc.string(), { maxLength: 3 }),
        fc.dictionary(fc.string(), fc.constant({ type: 'string' }), { maxKeys: 3 }),
      );
      fc.assert(
        fc.property(properties, fc.constantFrom(...OPENAI_STYLE_PROVIDERS, 'anthropic', 'mcp'), (given, provider: string) => {
          const schema: JsonSchema = given === undefined ? { type: 'object' } : { type: 'object', properties: given };
          const before = JSON.stringify(schema);
          const tool = toProviderTool({ name: 't', description: 'd', inputSchema: schema }, provider);
          const sent = 'function' in tool ? tool.function.parameters : 'input_schema' in tool ? tool.input_schema : tool.inputSchema;
          const sentProperties = sent['properties'];
          return (
            typeof sentProperties === 'object' &&
            sentProperties !== null &&
            !Array.isArray(sentProperties) &&
            JSON.stringify(schema) === before
          );
        }),
      );
    });
  });

  describe('descriptions', () => {
    const multiLine = { ...ping, description: '\n  Delete a note.  \r\nThe note must not be pinned.\nIt cannot be undone.' };

    it('sends the first non-blank line, trimmed, when descriptions is first-line', () => {
      expect(toProviderTool(multiLine, 'openai', { descriptions: 'first-line' }).function.description).toBe('Delete a note.');
      expect(toProviderTool(multiLine, 'anthropic', { descriptions: 'first-line' }).description).toBe('Delete a note.');
      expect(toProviderTool({ ...ping, description: ' \n ' }, 'mcp', { descriptions: 'first-line' }).description).toBe('');
    });

    it('sends the description unchanged by default', () => {
      expect(toProviderTool(multiLine, 'openai').function.description).toBe(multiLine.description);
    });

    it('throws INVALID_ARGUMENT when descriptions is neither full nor first-line', () => {
      expect(() => toProviderTool(ping, 'openai', { descriptions: 'short' as never })).toThrow(
        /descriptions must be 'full' or 'first-line'/,
      );
    });
  });

  it.each([
    [null, /string name/],
    [{ description: 'x', inputSchema: {} }, /string name/],
    [{ name: 'x', inputSchema: {} }, /string description/],
    [{ name: 'x', description: 'x', inputSchema: [] }, /object inputSchema/],
  ])('throws INVALID_ARGUMENT when the source is %j', (source, message) => {
    expect(() => toProviderTool(source as never, 'openai')).toThrow(message);
  });
});

describe('ProviderToolShapes', () => {
  const tools = Array.from({ length: 20 }, (_, index) => ({
    name: `tool_${index}`,
    description: `Tool ${index}.\nMore detail.`,
    inputSchema: index % 2 === 0 ? ({ type: 'object' } as JsonSchema) : pingSchema,
  }));

  describe('list', () => {
    it('returns the same tool objects on the next turn when the sources are the same', () => {
      const shapes = new ProviderToolShapes();
      const first = shapes.list(tools, 'openai');
      const second = shapes.list(tools, 'openai');
      expect(second).not.toBe(first);
      second.forEach((tool, index) => expect(tool).toBe(first[index]));
      expect(first.map((tool) => tool.function.name)).toEqual(tools.map((tool) => tool.name));
    });

    it('shares cached tools between provider names of one shape and keeps shapes and description modes apart', () => {
      const shapes = new ProviderToolShapes();
      const openAi = shapes.list(tools, 'openai');
      expect(shapes.list(tools, 'Groq')[0]).toBe(openAi[0]);
      const anthropic = shapes.list(tools, 'anthropic');
      expect(anthropic[0]).toEqual({
        name: 'tool_0',
        description: 'Tool 0.\nMore detail.',
        input_schema: { type: 'object', properties: {} },
      });
      const short = shapes.list(tools, 'anthropic', { descriptions: 'first-line' });
      expect(short[0]?.description).toBe('Tool 0.');
      expect(shapes.list(tools, 'anthropic')[0]).toBe(anthropic[0]);
    });

    it('fixes an empty schema once and shares the copy between tools and shapes', () => {
      const shapes = new ProviderToolShapes();
      const empty: JsonSchema = { type: 'object' };
      const [first, second] = shapes.list(
        [
          { name: 'a', description: 'A.', inputSchema: empty },
          { name: 'b', description: 'B.', inputSchema: empty },
        ],
        'openai',
      );
      expect(first?.function.parameters).toBe(second?.function.parameters);
      expect(first?.function.parameters).toEqual({ type: 'object', properties: {} });
      expect(empty).toEqual({ type: 'object' });
    });

    it('shapes a source again when one of its fields was replaced', () => {
      const shapes = new ProviderToolShapes();
      const source: { name: string; description: string; inputSchema: JsonSchema } = { ...ping };
      const before = shapes.toTool(source, 'anthropic');
      source.description = 'Checks a host twice.';
      const after = shapes.toTool(source, 'anthropic');
      expect(after).not.toBe(before);
      expect(after.description).toBe('Checks a host twice.');
    });

    it('agrees with toProviderTool for every provider and description mode', () => {
      const shapes = new ProviderToolShapes();
      for (const provider of ['openai', 'anthropic', 'mcp', 'mistral', 'unknown']) {
        for (const descriptions of ['full', 'first-line'] as const) {
          expect(shapes.list(tools, provider, { descriptions })).toEqual(
            tools.map((tool) => toProviderTool(tool, provider, { descriptions })),
          );
        }
      }
    });

    it('returns the same tools for frozen definitions, and follows a list that grew, shrank or changed order', () => {
      const shapes = new ProviderToolShapes();
      const definitions = ['alpha', 'beta', 'gamma'].map((name) => defineTool({ name, description: `${name} tool.`, handler: () => name }));
      const first = shapes.list(definitions, 'anthropic');
      const again = shapes.list([...definitions], 'anthropic');
      expect(again).toEqual(first);
      again.forEach((tool, index) => expect(tool).toBe(first[index]));
      again.pop();
      expect(shapes.list(definitions, 'anthropic')).toHaveLength(3);
      const extra = defineTool({ name: 'delta', description: 'delta tool.', handler: () => 'delta' });
      expect(shapes.list([extra, ...definitions], 'anthropic').map((tool) => tool.name)).toEqual(['delta', 'alpha', 'beta', 'gamma']);
      expect(shapes.list(definitions.slice(1), 'anthropic').map((tool) => tool.name)).toEqual(['beta', 'gamma']);
      expect(shapes.list(definitions, 'anthropic')[0]).toBe(first[0]);
    });

    it('sees a replaced field of a source that is not frozen on the next list', () => {
      const shapes = new ProviderToolShapes();
      const source: { name: string; description: string; inputSchema: JsonSchema } = { ...ping };
      expect(shapes.list([source], 'openai')[0]?.function.description).toBe('Checks a host.');
      source.description = 'Checks a host twice.';
      expect(shapes.list([source], 'openai')[0]?.function.description).toBe('Checks a host twice.');
    });

    it('throws INVALID_ARGUMENT when the tools are not an array', () => {
      expect(() => new ProviderToolShapes().list('ping' as never, 'openai')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    });
  });
});
