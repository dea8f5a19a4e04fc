import { ToolContext, Type, defineTool, type AnyToolDefinition } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { ToolRegistry } from './tool-registry.js';

const tool = (name: string, options: Partial<{ scopes: string[]; mutating: boolean }> = {}): AnyToolDefinition =>
  defineTool({ name, description: `${name} tool`, input: Type.Object({}), handler: () => name, ...options });

const toolset = () => [
  tool('file_read'),
  tool('file_write', { mutating: true }),
  tool('file_edit', { mutating: true }),
  tool('shell_exec', { scopes: ['ops'] }),
];

describe('ToolRegistry', () => {
  describe('deny', () => {
    it('never registers a denied tool: not listed, not callable, TOOL_NOT_FOUND as if absent', async () => {
      const registry = new ToolRegistry({
        deny: ['shell_exec', 'group:writes'],
        groups: { 'group:writes': ['file_write', 'file_edit'] },
        tools: toolset(),
      });
      expect(registry.getToolDefinitions().map((definition) => definition.name)).toEqual(['file_read']);
      expect(registry.has('file_write')).toBe(false);
      const result = await registry.call('file_write', {}, ToolContext.cli());
      expect(result.meta['code']).toBe('TOOL_NOT_FOUND');
      expect((await registry.listToolsFor(ToolContext.cli())).map((definition) => definition.name)).toEqual(['file_read']);
      expect(registry.inspect('file_write', ToolContext.cli())).toBeNull();
    });

    it('keeps a denied tool out when it is registered later, too', () => {
      const registry = new ToolRegistry({ deny: ['file_write'] });
      registry.register(tool('file_write'));
      registry.register(tool('file_read'));
      expect(registry.getToolDefinitions().map((definition) => definition.name)).toEqual(['file_read']);
    });

    it('reports every name and group member that matches no tool, and warns at construction', () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({
        logger,
        deny: ['file_wirte', 'group:writes'],
        groups: { 'group:writes': ['file_write', 'fiel_edit'] },
        tools: toolset(),
      });
      const report = registry.denyReport();
      expect(report.denied).toEqual(['fiel_edit', 'file_wirte', 'file_write']);
      expect(report.matched).toEqual(['file_write']);
      expect(report.unmatched).toEqual([
        { name: 'fiel_edit', via: 'group:writes' },
        { name: 'file_wirte', via: 'deny' },
      ]);
      const [warning] = logger.messages('warn');
      expect(warning).toContain('2 tool(s) that match no registered tool');
      expect(warning).toContain('file_wirte');
      expect(warning).toContain('fiel_edit (group:writes)');
    });

    it('names at most five unmatched entries in the warning, with the count', () => {
      const logger = new RecordingLogger();
      new ToolRegistry({ logger, deny: ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7'], tools: [tool('real')] });
      const [warning] = logger.messages('warn');
      expect(warning).toContain('7 tool(s)');
      expect(warning).toContain('a5, …');
      expect(warning).not.toContain('a6');
    });

    it('does not warn when every entry matched', () => {
      const logger = new RecordingLogger();
      new ToolRegistry({ logger, deny: ['file_write'], tools: toolset() });
      expect(logger.messages('warn')).toEqual([]);
    });

    it.each([
      ['a group with no definition', { deny: ['group:nope'] }, /group:nope/],
      ['a non-string entry', { deny: [42 as unknown as string] }, /non-empty string/],
      ['an empty entry', { deny: [' '] }, /non-empty string/],
      [
        'a group that is not a list of names',
        { deny: ['group:g'], groups: { 'group:g': 'file_write' as unknown as string[] } },
        /group 'group:g'/,
      ],
      ['deny that is not an array', { deny: 'file_write' as unknown as string[] }, /must be an array/],
    ])('refuses %s at construction', (_label, options, message) => {
      expect(() => new ToolRegistry(options)).toThrow(message);
    });
  });

  describe('listToolsFor', () => {
    it('lists exactly the tools authorization lets this caller use, in registration order', async () => {
      const registry = new ToolRegistry({
        tools: [...toolset(), tool('notes', { scopes: ['notes:read'] })],
        channelPolicies: { kiosk: { block_mutating: true } },
      });
      const names = async (context: ToolContext) => (await registry.listToolsFor(context)).map((definition) => definition.name);
      expect(await names(ToolContext.cli())).toEqual(['file_read', 'file_write', 'file_edit', 'shell_exec', 'notes']);
      expect(await names(ToolContext.web('u', ['notes:read']))).toEqual(['file_read', 'file_write', 'file_edit', 'notes']);
      expect(await names(ToolContext.web(null, ['*']))).toEqual([]);
      expect(await names(new ToolContext({ principal: 'u', channel: 'kiosk', scopes: ['*'] }))).toEqual([
        'file_read',
        'shell_exec',
        'notes',
      ]);
    });

    it('waits for an async rule provider and lists only what it allows', async () => {
      const registry = new ToolRegistry({
        tools: toolset(),
        ruleProvider: {
          findMatchingRule: async (_channel, _principal, name) =>
            name === 'file_read' ? { id: 1, effect: 'deny', requiresScopes: [], description: null } : null,
        },
      });
      expect((await registry.listToolsFor(ToolContext.cli())).map((definition) => definition.name)).toEqual([
        'file_write',
        'file_edit',
        'shell_exec',
      ]);
    });

    it('logs the unknown-channel warning once per listing, never once per tool', async () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ logger, tools: toolset() });
      const listed = await registry.listToolsFor(new ToolContext({ principal: 'u', channel: 'pigeon' }));
      expect(listed.map((definition) => definition.name)).toEqual(['file_read', 'file_write', 'file_edit']);
      expect(logger.matching('not a registered channel')).toHaveLength(1);
    });

    it('keeps a listing per caller until a tool is registered or a policy changes', async () => {
      const registry = new ToolRegistry({ tools: toolset() });
      const context = ToolContext.web('u', ['notes:read']);
      const first = await registry.listToolsFor(context);
      expect(await registry.listToolsFor(ToolContext.web('u', ['notes:read']))).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
      registry.register(tool('late'));
      const second = await registry.listToolsFor(context);
      expect(second.map((definition) => definition.name)).toContain('late');
      registry.getPolicyGate().setChannelPolicy('web', { block_mutating: true });
      const third = await registry.listToolsFor(context);
      expect(third.map((definition) => definition.name)).toEqual(['file_read', 'late']);
      expect((await registry.listToolsFor(ToolContext.web('other', ['notes:read']))).map((definition) => definition.name)).toEqual([
        'file_read',
        'late',
      ]);
      expect((await registry.listToolsFor(ToolContext.web('u', ['ops']))).map((definition) => definition.name)).toContain('shell_exec');
    });

    it('asks a rule provider on every listing, never from a cache', async () => {
      const findMatchingRule = vi.fn(() => null);
      const registry = new ToolRegistry({ tools: toolset(), ruleProvider: { findMatchingRule } });
      await registry.listToolsFor(ToolContext.cli());
      await registry.listToolsFor(ToolContext.cli());
      expect(findMatchingRule).toHaveBeenCalledTimes(8);
      registry.getPolicyGate().setRuleProvider(null);
      expect((await registry.listToolsFor(ToolContext.cli())).map((definition) => definition.name)).toHaveLength(4);
    });

    it('refuses something that is not a ToolContext', async () => {
      await expect(new ToolRegistry().listToolsFor({ channel: 'cli' } as unknown as ToolContext)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    });
  });

  describe('getToolsWithinBudget: model limits', () => {
    it("warns once per unknown model through the registry's logger, and a contextWindow option wins", () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ logger, tools: toolset() });
      registry.getToolsWithinBudget('acme-brain-7');
      registry.getToolsWithinBudget('acme-brain-7');
      expect(logger.messages('warn').filter((message) => message.includes('acme-brain-7'))).toHaveLength(1);
      const small = new ToolRegistry({ contextWindow: 100, tools: toolset() });
      expect(small.getToolsWithinBudget('gpt-4.1').budget).toBe(30);
      expect(new ToolRegistry({ tools: toolset() }).getToolsWithinBudget('gpt-4.1').budget).toBeGreaterThan(300_000);
    });
  });

  describe('getToolsWithinBudget with a context', () => {
    it('budgets only the tools the context may call', async () => {
      const registry = new ToolRegistry({ tools: toolset() });
      const offered = await registry.getToolsWithinBudget('gpt-4o', [], ToolContext.web('u', []));
      expect(offered.tools.map((summary) => summary.name)).toEqual(['file_read', 'file_write', 'file_edit']);
      const all = registry.getToolsWithinBudget('gpt-4o');
      expect(all.tools.map((summary) => summary.name)).toContain('shell_exec');
    });
  });

  describe('call: listed and callable agree', () => {
    it('executes every listed tool and refuses every unlisted one for the same caller', async () => {
      const handler = vi.fn(() => 'ok');
      const registry = new ToolRegistry({ tools: toolset().map((definition) => ({ ...definition, handler })), deny: ['file_edit'] });
      const context = ToolContext.web('u', []);
      const listed = new Set((await registry.listToolsFor(context)).map((definition) => definition.name));
      for (const name of ['file_read', 'file_write', 'file_edit', 'shell_exec']) {
        const result = await registry.call(name, {}, context);
        expect(result.success).toBe(listed.has(name));
      }
    });
  });
});
