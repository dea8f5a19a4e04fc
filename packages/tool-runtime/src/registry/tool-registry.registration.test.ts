import { ToolContext, MilpaError, Type, defineTool, type AnyToolDefinition } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { ToolAlreadyRegisteredError } from './tool-already-registered-error.js';
import { ToolRegistry } from './tool-registry.js';

function noop(name: string, extra: Partial<Parameters<typeof defineTool>[0]> = {}): AnyToolDefinition {
  return defineTool({ name, description: `${name} tool`, handler: () => null, ...extra });
}

describe('ToolRegistry', () => {
  describe('register', () => {
    it('makes has() true and getDefinition() return the definition when a tool is registered', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(noop('my_tool'));
      expect(registry.has('my_tool')).toBe(true);
      expect(registry.getDefinition('my_tool')?.name).toBe('my_tool');
      expect(registry.has('unknown')).toBe(false);
      expect(registry.getDefinition('unknown')).toBeNull();
    });

    it('throws ToolAlreadyRegisteredError and keeps the first tool when a name is registered twice', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(noop('my_tool', { description: 'first' }));
      const second = () => registry.register(noop('my_tool', { description: 'second' }));
      expect(second).toThrow(ToolAlreadyRegisteredError);
      expect(second).toThrow('Tool already registered: my_tool');
      try {
        second();
      } catch (error) {
        expect(MilpaError.isInstance(error)).toBe(true);
        expect((error as MilpaError).code).toBe('TOOL_ALREADY_REGISTERED');
      }
      expect(registry.getDefinition('my_tool')?.description).toBe('first');
    });

    it('stores scopes, mutating and the 30 s default timeout when options are given', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(noop('writer', { scopes: ['read'], mutating: true }));
      const definition = registry.getDefinition('writer');
      expect(definition).toMatchObject({ name: 'writer', description: 'writer tool', scopes: ['read'], mutating: true, timeoutMs: 30_000 });
    });

    it('throws a MilpaError at registration, not at call time, when the input schema is invalid', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const broken = { ...noop('broken'), inputSchema: { type: 'object', properties: { a: { type: 'strng' } } } };
      expect(() => registry.register(broken)).toThrow(MilpaError);
      expect(registry.has('broken')).toBe(false);
    });

    it('throws a MilpaError when a schema uses an unknown keyword (a typo)', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const typo = { ...noop('typo'), inputSchema: { type: 'object', properties: { a: { type: 'string', maxLenght: 3 } } } };
      expect(() => registry.register(typo)).toThrow(MilpaError);
    });

    it('throws a MilpaError when the output schema is invalid', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      expect(() => registry.register({ ...noop('out'), outputSchema: { type: 42 } })).toThrow(MilpaError);
      expect(registry.has('out')).toBe(false);
    });

    it('rejects a hand-built definition with an unknown option key', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      expect(() => registry.register({ ...noop('cat'), category: 'x' } as AnyToolDefinition)).toThrow(/category/);
    });

    it('rejects non-positive rate-limit settings in the constructor', () => {
      expect(() => new ToolRegistry({ defaultContext: () => ToolContext.cli(), rateLimit: { maxTokens: 0 } })).toThrow(MilpaError);
      expect(() => new ToolRegistry({ defaultContext: () => ToolContext.cli(), rateLimit: { windowSeconds: Number.NaN } })).toThrow(
        MilpaError,
      );
    });
  });

  describe('getToolDefinitions', () => {
    it('returns definitions in registration order, and [] for an empty registry', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      expect(registry.getToolDefinitions()).toEqual([]);
      for (const name of ['c', 'a', 'b']) registry.register(noop(name));
      expect(registry.getToolDefinitions().map((definition) => definition.name)).toEqual(['c', 'a', 'b']);
    });
  });

  describe('getToolSummaries', () => {
    it('lists {name, description, inputSchema} in registration order with schemas as registered', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const input = Type.Object({ q: Type.String() });
      registry.register(noop('one', { input }));
      registry.register(noop('two'));
      registry.register(noop('three'));
      const summaries = registry.getToolSummaries();
      expect(summaries.map((summary) => summary.name)).toEqual(['one', 'two', 'three']);
      expect(summaries[0]).toEqual({ name: 'one', description: 'one tool', inputSchema: input });
      expect(Object.keys(summaries[0] ?? {})).toEqual(['name', 'description', 'inputSchema']);
    });

    it('serializes an empty properties map as {} and never as []', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(noop('no_params'));
      const json = JSON.stringify(registry.getToolSummaries());
      expect(json).toContain('"inputSchema":{"type":"object","properties":{}}');
      expect(json).not.toContain('"properties":[]');
    });

    it('lists an empty input schema as {type:"object"}', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register({ ...noop('empty'), inputSchema: {} });
      expect(registry.getToolSummaries()[0]?.inputSchema).toEqual({ type: 'object' });
    });

    it('includes version and outputSchema only when they are set', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      const outputSchema = { type: 'object', properties: { id: { type: 'integer' } } };
      registry.register(noop('versioned', { version: '2.0.0', outputSchema }));
      registry.register(noop('plain'));
      const [versioned, plain] = registry.getToolSummaries();
      expect(versioned).toMatchObject({ version: '2.0.0', outputSchema });
      expect(registry.getDefinition('versioned')).toMatchObject({ version: '2.0.0', outputSchema });
      expect(plain).not.toHaveProperty('version');
      expect(plain).not.toHaveProperty('outputSchema');
      expect(registry.getDefinition('plain')).toMatchObject({ version: null, outputSchema: null });
    });
  });

  describe('getToolsByScopes', () => {
    it('returns tools without scopes and tools sharing an exact scope', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(noop('open'));
      registry.register(noop('reader', { scopes: ['x'] }));
      registry.register(noop('admin', { scopes: ['admin'] }));
      expect(registry.getToolsByScopes(['x']).map((tool) => tool.name)).toEqual(['open', 'reader']);
      expect(registry.getToolsByScopes(['x'])[1]).toEqual({
        name: 'reader',
        description: 'reader tool',
        inputSchema: { type: 'object', properties: {} },
      });
    });

    it('returns every tool when the scopes hold the * wildcard', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(noop('open'));
      registry.register(noop('admin', { scopes: ['admin'] }));
      expect(registry.getToolsByScopes(['*']).map((tool) => tool.name)).toEqual(['open', 'admin']);
    });
  });

  describe('getToolsByPrefix', () => {
    it('returns the tools whose name starts with the prefix', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      for (const name of ['list_notes', 'get_note', 'list_users']) registry.register(noop(name));
      expect(registry.getToolsByPrefix('list_').map((tool) => tool.name)).toEqual(['list_notes', 'list_users']);
    });
  });

  describe('getToolsWithinBudget', () => {
    const bulky = (name: string) =>
      noop(name, { description: 'x'.repeat(4000), input: Type.Object({ q: Type.String({ description: 'y'.repeat(2000) }) }) });

    it('puts priority tools first, keeps the rest in order and reports {tools, excluded, tokens_used, budget}', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      for (const name of ['a', 'b', 'c']) registry.register(noop(name));
      const result = registry.getToolsWithinBudget('gpt-4', ['c']);
      expect(result.tools.map((tool) => tool.name)).toEqual(['c', 'a', 'b']);
      expect(result.excluded).toEqual([]);
      expect(result.budget).toBe(2457);
      expect(result.tokens_used).toBeGreaterThan(0);
    });

    it('logs a warning naming the first five excluded tools and "..." when more were excluded', () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger });
      for (let index = 0; index < 8; index += 1) registry.register(bulky(`bulky_${index}`));
      const result = registry.getToolsWithinBudget('gpt-3.5-turbo-0613');
      expect(result.excluded.length).toBe(8);
      expect(logger.messages('warn')).toContain(
        '[ToolRegistry] Token budget exceeded. Excluded 8 tools: bulky_0, bulky_1, bulky_2, bulky_3, bulky_4...',
      );
    });

    it('logs the excluded tools without "..." when five or fewer were excluded', () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger });
      registry.register(bulky('only'));
      registry.getToolsWithinBudget('gpt-3.5-turbo-0613');
      expect(logger.messages('warn')).toContain('[ToolRegistry] Token budget exceeded. Excluded 1 tools: only');
    });
  });

  describe('accessors', () => {
    it('reports no rate limiter until one is set, then returns that same instance', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      expect(registry.getRateLimiter()).toBeNull();
      expect(registry.hasRateLimiter()).toBe(false);
      const limiter = { consume: () => ({ allowed: true }) as never, getUsage: () => 0, reset: () => undefined };
      registry.setRateLimiter(limiter);
      expect(registry.getRateLimiter()).toBe(limiter);
      expect(registry.hasRateLimiter()).toBe(true);
    });

    it('reports a dispatcher only when one was passed to the constructor', () => {
      expect(new ToolRegistry({ defaultContext: () => ToolContext.cli() }).hasDispatcher()).toBe(false);
      const dispatcher = {
        subscribe: () => () => undefined,
        dispatch: async () => undefined,
        hasSubscribers: () => false,
        getSubscribers: () => [],
      };
      expect(new ToolRegistry({ defaultContext: () => ToolContext.cli(), dispatcher }).hasDispatcher()).toBe(true);
    });

    it('exposes its policy gate and confirmation store', () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      expect(registry.getPolicyGate().channelPolicy('web')).toEqual({ allow_all: false, require_auth: true });
      expect(registry.getConfirmationStore()).toBeDefined();
    });
  });
});
