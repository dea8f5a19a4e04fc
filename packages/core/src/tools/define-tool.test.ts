import { Type } from 'typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ToolContext } from '../context/tool-context.js';
import { MilpaError } from '../errors/milpa-error.js';
import { ToolResult } from '../result/tool-result.js';
import { DEFAULT_TOOL_TIMEOUT_MS, TOOL_OPTION_KEYS, defineTool, normalizeToolDefinition } from './define-tool.js';
import { unsupportedCaller } from './tool-caller.js';
import type { ToolInvocation, ToolRouting } from './tool-definition.js';

const noop = () => null;

function invocation(): ToolInvocation {
  return { context: ToolContext.cli(), signal: new AbortController().signal, caller: unsupportedCaller };
}

function invalidDefinition(message: string) {
  return expect.objectContaining({ code: 'INVALID_TOOL_DEFINITION', message });
}

describe('normalizeToolDefinition', () => {
  describe('defaults', () => {
    it('fills every option with its default when only name, description and handler are given', () => {
      const definition = normalizeToolDefinition({ name: 'ping', description: 'Ping', handler: noop });

      expect(definition).toEqual({
        name: 'ping',
        description: 'Ping',
        title: null,
        inputSchema: { type: 'object', properties: {} },
        handler: noop,
        scopes: [],
        mutating: false,
        requiresConfirmation: false,
        timeoutMs: 30_000,
        hardTimeout: false,
        clamps: {},
        version: null,
        outputSchema: null,
        routing: null,
      });
      expect(DEFAULT_TOOL_TIMEOUT_MS).toBe(30_000);
    });

    it('treats null timeoutMs, scopes, clamps, version, title, outputSchema and routing as absent', () => {
      const definition = normalizeToolDefinition({
        name: 'ping',
        description: 'Ping',
        handler: noop,
        timeoutMs: null,
        scopes: null,
        clamps: null,
        version: null,
        title: null,
        outputSchema: null,
        routing: null,
      });

      expect(definition.timeoutMs).toBe(30_000);
      expect(definition.scopes).toEqual([]);
      expect(definition.clamps).toEqual({});
      expect(definition.version).toBeNull();
      expect(definition.title).toBeNull();
      expect(definition.outputSchema).toBeNull();
      expect(definition.routing).toBeNull();
    });

    it('keeps every option when all are given', () => {
      const output = { type: 'object', properties: { id: { type: 'integer' } } };
      const definition = normalizeToolDefinition({
        name: 'notes.delete-v2',
        description: 'Delete a note',
        title: 'Delete note',
        inputSchema: { type: 'object', properties: { id: { type: 'integer' } } },
        handler: noop,
        scopes: ['notes:write'],
        mutating: true,
        requiresConfirmation: true,
        timeoutMs: 1500,
        hardTimeout: true,
        clamps: { id: [1, 10] },
        version: '2.0.0',
        outputSchema: output,
      });

      expect(definition).toMatchObject({
        name: 'notes.delete-v2',
        title: 'Delete note',
        scopes: ['notes:write'],
        mutating: true,
        requiresConfirmation: true,
        timeoutMs: 1500,
        hardTimeout: true,
        clamps: { id: { min: 1, max: 10 } },
        version: '2.0.0',
        outputSchema: output,
      });
    });

    it('accepts an input schema without a type keyword', () => {
      const schema = { properties: { q: { type: 'string' } } };

      expect(normalizeToolDefinition({ name: 'x', description: '', inputSchema: schema, handler: noop }).inputSchema).toBe(schema);
    });
  });

  describe('clamps', () => {
    const input = Type.Object({ page: Type.Integer(), title: Type.String(), score: Type.Number() });

    it('normalizes {min, max, maxLength} objects and the [min, max] shorthand to rules', () => {
      const definition = normalizeToolDefinition({
        name: 'x',
        description: '',
        input,
        handler: noop,
        clamps: { page: [1, 100], title: { maxLength: 80 }, score: { min: -1.5 } },
      });

      expect(definition.clamps).toEqual({ page: { min: 1, max: 100 }, title: { maxLength: 80 }, score: { min: -1.5 } });
    });

    it('accepts min equal to max', () => {
      const definition = normalizeToolDefinition({ name: 'x', description: '', input, handler: noop, clamps: { page: [5, 5] } });

      expect(definition.clamps['page']).toEqual({ min: 5, max: 5 });
    });

    it.each<[string, unknown, string]>([
      ['a non-object clamps map', [['page', [1, 2]]], "Tool 'x': clamps must be an object keyed by field name."],
      ['a scalar clamp', 5, "Tool 'x': clamp 'page' must be { min, max, maxLength } or [min, max]."],
      ['a one-element array', [1], "Tool 'x': clamp 'page' must be [min, max] with two numbers."],
      ['a three-element array', [1, 2, 3], "Tool 'x': clamp 'page' must be [min, max] with two numbers."],
      ['a non-numeric array', ['1', '2'], "Tool 'x': clamp 'page' must be [min, max] with two numbers."],
      ['an array with NaN', [Number.NaN, 2], "Tool 'x': clamp 'page.min' must be a finite number."],
      ['an unknown clamp key', { min: 1, step: 2 }, "Tool 'x': clamp 'page' has unknown key(s): step. Known keys: min, max, maxLength."],
      ['a string min', { min: '1' }, "Tool 'x': clamp 'page.min' must be a finite number."],
      ['an infinite max', { max: Number.POSITIVE_INFINITY }, "Tool 'x': clamp 'page.max' must be a finite number."],
      ['a negative maxLength', { maxLength: -1 }, "Tool 'x': clamp 'page.maxLength' must be a non-negative integer."],
      ['a fractional maxLength', { maxLength: 2.5 }, "Tool 'x': clamp 'page.maxLength' must be a non-negative integer."],
      ['min above max', { min: 10, max: 1 }, "Tool 'x': clamp 'page' has min 10 greater than max 1."],
      ['min above max in shorthand', [10, 1], "Tool 'x': clamp 'page' has min 10 greater than max 1."],
      ['an empty rule', {}, "Tool 'x': clamp 'page' sets none of min, max, maxLength."],
    ])('rejects %s', (_case, spec, message) => {
      const clamps = Array.isArray(spec) && Array.isArray(spec[0]) ? spec : { page: spec };

      expect(() => normalizeToolDefinition({ name: 'x', description: '', input, handler: noop, clamps })).toThrow(
        invalidDefinition(message),
      );
    });

    it('rejects a clamp on a field the input schema does not declare', () => {
      expect(() => normalizeToolDefinition({ name: 'x', description: '', input, handler: noop, clamps: { pgae: [1, 10] } })).toThrow(
        invalidDefinition("Tool 'x': clamp 'pgae' names no property of the input schema."),
      );
    });

    it('freezes the normalized clamps', () => {
      const definition = normalizeToolDefinition({ name: 'x', description: '', input, handler: noop, clamps: { page: [1, 2] } });

      expect(Object.isFrozen(definition.clamps)).toBe(true);
      expect(Object.isFrozen(definition.clamps['page'])).toBe(true);
    });
  });

  describe('rejections', () => {
    it.each<[string, unknown, string]>([
      ['a non-object declaration', 'ping', 'Tool definition: expected an object.'],
      ['a null declaration', null, 'Tool definition: expected an object.'],
      ['an array declaration', [], 'Tool definition: expected an object.'],
      [
        'unknown keys, naming each',
        { name: 'ping', description: '', handler: noop, category: 'x', confirm: true },
        `Tool 'ping': unknown option key(s): category, confirm. Known keys: ${TOOL_OPTION_KEYS.join(', ')}.`,
      ],
      [
        'a name with spaces',
        { name: 'list notes', description: '', handler: noop },
        `Tool 'list notes': name must be 1-128 characters of letters, digits, "_", "-" or ".".`,
      ],
      [
        'an empty name',
        { name: '', description: '', handler: noop },
        'Tool definition: name must be 1-128 characters of letters, digits, "_", "-" or ".".',
      ],
      [
        'a missing name',
        { description: '', handler: noop },
        'Tool definition: name must be 1-128 characters of letters, digits, "_", "-" or ".".',
      ],
      [
        'a name longer than 128 characters',
        { name: 'a'.repeat(129), description: '', handler: noop },
        `Tool '${'a'.repeat(129)}': name must be 1-128 characters of letters, digits, "_", "-" or ".".`,
      ],
      ['a missing description', { name: 'x', handler: noop }, "Tool 'x': description must be a string."],
      ['a missing handler', { name: 'x', description: '' }, "Tool 'x': handler must be a function."],
      ['a non-function handler', { name: 'x', description: '', handler: 'run' }, "Tool 'x': handler must be a function."],
      [
        'both input and inputSchema',
        { name: 'x', description: '', handler: noop, input: Type.Object({}), inputSchema: { type: 'object' } },
        "Tool 'x': give either input or inputSchema, not both.",
      ],
      [
        'a non-object input',
        { name: 'x', description: '', handler: noop, input: 'string' },
        "Tool 'x': input must be a JSON Schema object.",
      ],
      [
        'a non-object inputSchema',
        { name: 'x', description: '', handler: noop, inputSchema: [] },
        "Tool 'x': inputSchema must be a JSON Schema object.",
      ],
      [
        'an input whose type is not object',
        { name: 'x', description: '', handler: noop, input: Type.String() },
        "Tool 'x': input schema must describe an object (type 'object'), got type 'string'.",
      ],
      [
        'an inputSchema whose type is array',
        { name: 'x', description: '', handler: noop, inputSchema: { type: 'array' } },
        "Tool 'x': input schema must describe an object (type 'object'), got type 'array'.",
      ],
      [
        'non-array scopes',
        { name: 'x', description: '', handler: noop, scopes: 'notes:read' },
        "Tool 'x': scopes must be an array of non-empty strings.",
      ],
      [
        'an empty scope',
        { name: 'x', description: '', handler: noop, scopes: ['notes:read', ''] },
        "Tool 'x': scopes must be an array of non-empty strings.",
      ],
      [
        'a non-boolean mutating',
        { name: 'x', description: '', handler: noop, mutating: 'yes' },
        "Tool 'x': mutating must be a boolean or a function of the arguments that returns one.",
      ],
      [
        'a null mutating',
        { name: 'x', description: '', handler: noop, mutating: null },
        "Tool 'x': mutating must be a boolean or a function of the arguments that returns one.",
      ],
      [
        'a non-boolean requiresConfirmation',
        { name: 'x', description: '', handler: noop, requiresConfirmation: 1 },
        "Tool 'x': requiresConfirmation must be a boolean.",
      ],
      [
        'a non-boolean hardTimeout',
        { name: 'x', description: '', handler: noop, hardTimeout: null },
        "Tool 'x': hardTimeout must be a boolean.",
      ],
      [
        'a zero timeout',
        { name: 'x', description: '', handler: noop, timeoutMs: 0 },
        "Tool 'x': timeoutMs must be a positive number of milliseconds.",
      ],
      [
        'a negative timeout',
        { name: 'x', description: '', handler: noop, timeoutMs: -5 },
        "Tool 'x': timeoutMs must be a positive number of milliseconds.",
      ],
      [
        'an infinite timeout',
        { name: 'x', description: '', handler: noop, timeoutMs: Number.POSITIVE_INFINITY },
        "Tool 'x': timeoutMs must be a positive number of milliseconds.",
      ],
      [
        'a string timeout',
        { name: 'x', description: '', handler: noop, timeoutMs: '30' },
        "Tool 'x': timeoutMs must be a positive number of milliseconds.",
      ],
      ['a non-string version', { name: 'x', description: '', handler: noop, version: 2 }, "Tool 'x': version must be a string."],
      ['a non-string title', { name: 'x', description: '', handler: noop, title: 5 }, "Tool 'x': title must be a string."],
      [
        'a non-object outputSchema',
        { name: 'x', description: '', handler: noop, outputSchema: 'object' },
        "Tool 'x': outputSchema must be a JSON Schema object.",
      ],
    ])('throws INVALID_TOOL_DEFINITION for %s', (_case, declaration, message) => {
      const attempt = () => normalizeToolDefinition(declaration);

      expect(attempt).toThrow(MilpaError);
      expect(attempt).toThrow(invalidDefinition(message));
    });
  });

  describe('routing', () => {
    it('fills the lists the declaration leaves out with empty lists', () => {
      const definition = normalizeToolDefinition({ name: 'x', description: '', handler: noop, routing: { tags: ['editor'] } });

      expect(definition.routing).toEqual({ intents: [], domains: [], tags: ['editor'], examples: [] });
    });

    it('keeps every list in the order given', () => {
      const routing = {
        intents: ['delete', 'remove'],
        domains: ['notes'],
        tags: ['editor', 'markdown'],
        examples: ['delete my last note'],
      };

      expect(normalizeToolDefinition({ name: 'x', description: '', handler: noop, routing }).routing).toEqual(routing);
    });

    it('accepts an empty routing object as routing with four empty lists', () => {
      const definition = normalizeToolDefinition({ name: 'x', description: '', handler: noop, routing: {} });

      expect(definition.routing).toEqual({ intents: [], domains: [], tags: [], examples: [] });
    });

    it('returns a frozen copy that later edits to the declaration do not change', () => {
      const tags = ['editor'];
      const routing = { tags };
      const definition = normalizeToolDefinition({ name: 'x', description: '', handler: noop, routing });
      tags.push('admin');
      (routing as Record<string, unknown>)['intents'] = ['write'];

      expect(definition.routing?.tags).toEqual(['editor']);
      expect(definition.routing?.intents).toEqual([]);
      expect(Object.isFrozen(definition.routing)).toBe(true);
      expect(Object.isFrozen(definition.routing?.tags)).toBe(true);
      expect(Object.isFrozen(definition.routing?.intents)).toBe(true);
    });

    it.each<[string, unknown, string]>([
      ['an array', ['editor'], "Tool 'x': routing must be an object of intents, domains, tags and examples."],
      ['a string', 'editor', "Tool 'x': routing must be an object of intents, domains, tags and examples."],
      [
        'an unknown key',
        { tags: ['a'], keywords: ['b'], topics: [] },
        "Tool 'x': routing has unknown key(s): keywords, topics. Known keys: intents, domains, tags, examples.",
      ],
      ['a string list', { intents: 'delete' }, "Tool 'x': routing.intents must be an array of non-empty strings."],
      ['an empty string', { domains: ['notes', ''] }, "Tool 'x': routing.domains must be an array of non-empty strings."],
      ['a blank string', { tags: ['  '] }, "Tool 'x': routing.tags must be an array of non-empty strings."],
      ['a number', { examples: [42] }, "Tool 'x': routing.examples must be an array of non-empty strings."],
      ['a null entry', { tags: [null] }, "Tool 'x': routing.tags must be an array of non-empty strings."],
    ])('rejects %s naming the tool and the field', (_case, routing, message) => {
      const attempt = () => normalizeToolDefinition({ name: 'x', description: '', handler: noop, routing });

      expect(attempt).toThrow(MilpaError);
      expect(attempt).toThrow(invalidDefinition(message));
    });

    it('treats a null list as an empty one', () => {
      const definition = normalizeToolDefinition({ name: 'x', description: '', handler: noop, routing: { tags: null } });

      expect(definition.routing?.tags).toEqual([]);
    });
  });

  describe('output', () => {
    it('is frozen, with frozen scopes copied from the declaration', () => {
      const scopes = ['notes:read'];
      const definition = normalizeToolDefinition({ name: 'x', description: '', handler: noop, scopes });
      scopes.push('admin');

      expect(Object.isFrozen(definition)).toBe(true);
      expect(Object.isFrozen(definition.scopes)).toBe(true);
      expect(definition.scopes).toEqual(['notes:read']);
      expect(() => {
        (definition as { mutating: boolean }).mutating = true;
      }).toThrow(TypeError);
    });

    it('returns a definition that normalizes again to an equal definition', () => {
      const definition = normalizeToolDefinition({
        name: 'x',
        description: 'd',
        handler: noop,
        clamps: {},
        routing: { intents: ['ping'] },
      });

      expect(normalizeToolDefinition({ ...definition })).toEqual(definition);
    });
  });
});

describe('TOOL_OPTION_KEYS', () => {
  it('lists the keys defineTool accepts and cannot be changed', () => {
    expect(TOOL_OPTION_KEYS).toEqual([
      'name',
      'description',
      'input',
      'inputSchema',
      'handler',
      'title',
      'scopes',
      'mutating',
      'requiresConfirmation',
      'timeoutMs',
      'hardTimeout',
      'clamps',
      'version',
      'outputSchema',
      'routing',
    ]);
    expect(Object.isFrozen(TOOL_OPTION_KEYS)).toBe(true);
  });
});

describe('defineTool', () => {
  const input = Type.Object({
    page: Type.Optional(Type.Integer()),
    query: Type.String(),
    filter: Type.Object({ tags: Type.Array(Type.String()), archived: Type.Optional(Type.Boolean()) }),
  });

  it('returns a plain frozen definition whose handler is the one given', async () => {
    const listNotes = defineTool({
      name: 'list_notes',
      description: 'List saved notes',
      input,
      scopes: ['notes:read'],
      clamps: { page: [1, 1000] },
      handler: ({ page = 1, query }) => ({ notes: [query], page }),
    });

    expect(Object.isFrozen(listNotes)).toBe(true);
    expect(listNotes.inputSchema).toBe(input);
    expect(listNotes.clamps).toEqual({ page: { min: 1, max: 1000 } });
    expect(await listNotes.handler({ query: 'milpa', filter: { tags: [] } }, invocation())).toEqual({
      notes: ['milpa'],
      page: 1,
    });
  });

  it('passes the invocation (context and signal) to the handler', () => {
    const whoami = defineTool({
      name: 'whoami',
      description: 'Who is calling',
      handler: (_args, { context, signal }) => ({ principal: context.principal, aborted: signal.aborted }),
    });

    expect(whoami.handler({}, invocation())).toEqual({ principal: 'cli', aborted: false });
  });

  it('keeps a per-call mutating function on the frozen definition, its args typed from input', () => {
    const mutating = (args: { command: string }): boolean => args.command !== 'ls';
    const shell = defineTool({
      name: 'shell_exec',
      description: 'Run a command',
      input: Type.Object({ command: Type.String() }),
      mutating: (args) => {
        expectTypeOf(args.command).toEqualTypeOf<string>();
        return mutating(args);
      },
      handler: () => null,
    });

    expect(Object.isFrozen(shell)).toBe(true);
    expect(typeof shell.mutating).toBe('function');
    expect((shell.mutating as (args: { command: string }) => boolean)({ command: 'rm x' })).toBe(true);
    expect((shell.mutating as (args: { command: string }) => boolean)({ command: 'ls' })).toBe(false);
  });

  it('throws the same INVALID_TOOL_DEFINITION errors as normalizeToolDefinition', () => {
    expect(() => defineTool({ name: 'bad name', description: '', handler: noop })).toThrow(
      expect.objectContaining({ code: 'INVALID_TOOL_DEFINITION' }),
    );
    expect(() =>
      // @ts-expect-error category is not a tool option
      defineTool({ name: 'x', description: '', handler: noop, category: 'misc' }),
    ).toThrow(invalidDefinition(`Tool 'x': unknown option key(s): category. Known keys: ${TOOL_OPTION_KEYS.join(', ')}.`));
  });

  describe('types', () => {
    it('infers handler args from input: required, Optional and nested fields', () => {
      defineTool({
        name: 'typed',
        description: '',
        input,
        handler: (args) => {
          expectTypeOf(args.query).toEqualTypeOf<string>();
          expectTypeOf(args.page).toEqualTypeOf<number | undefined>();
          expectTypeOf(args.filter.tags).toEqualTypeOf<string[]>();
          expectTypeOf(args.filter.archived).toEqualTypeOf<boolean | undefined>();
          // @ts-expect-error not declared in input
          void args.missing;
          return null;
        },
      });
    });

    it('types a handler with no input as taking a record of unknown values', () => {
      defineTool({
        name: 'untyped',
        description: '',
        handler: (args) => {
          expectTypeOf(args).toExtend<Record<string, unknown>>();
          return null;
        },
      });
    });

    it('types the invocation and the definition', () => {
      const definition = defineTool({
        name: 'typed',
        description: '',
        input,
        handler: (_args, invocation) => {
          expectTypeOf(invocation.context).toEqualTypeOf<ToolContext>();
          expectTypeOf(invocation.signal).toEqualTypeOf<AbortSignal>();
          return { ok: true as const };
        },
      });

      expectTypeOf(definition.handler).parameter(0).toHaveProperty('query').toEqualTypeOf<string>();
      expectTypeOf(definition.handler).returns.toExtend<{ ok: true } | ToolResult | Promise<{ ok: true } | ToolResult>>();
    });

    it('allows a handler to return a ToolResult or a promise', () => {
      defineTool({ name: 'a', description: '', handler: () => ToolResult.success(1) });
      defineTool({ name: 'b', description: '', handler: async () => ToolResult.error('x') });
      defineTool({ name: 'c', description: '', handler: async () => 42 });
    });

    it('types routing as optional lists of strings', () => {
      const definition = defineTool({ name: 'a', description: '', routing: { intents: ['list'] }, handler: noop });

      expectTypeOf(definition.routing).toEqualTypeOf<ToolRouting | null>();
      expect(() =>
        defineTool({
          name: 'b',
          description: '',
          // @ts-expect-error tags is a list of strings, not a string
          routing: { tags: 'editor' },
          handler: noop,
        }),
      ).toThrow(MilpaError);
    });

    it('restricts clamps keys to input fields', () => {
      defineTool({ name: 'a', description: '', input, clamps: { page: [1, 10], query: { maxLength: 5 } }, handler: noop });
      expect(() =>
        defineTool({
          name: 'b',
          description: '',
          input,
          // @ts-expect-error 'pgae' is not an input field
          clamps: { pgae: [1, 10] },
          handler: noop,
        }),
      ).toThrow(MilpaError);
    });

    it('rejects a clamp of the wrong shape at compile time', () => {
      expect(() =>
        defineTool({
          name: 'a',
          description: '',
          input,
          // @ts-expect-error a clamp tuple has exactly two numbers
          clamps: { page: [1, 2, 3] },
          handler: noop,
        }),
      ).toThrow(MilpaError);
    });
  });
});
