import { ToolContext, Type, defineTool, type AnyToolDefinition } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { UNLIMITED } from '../routing/model-tool-budget.js';
import { ToolRegistry } from './tool-registry.js';

const TOPICS = [
  'invoice',
  'customer',
  'shipment',
  'warehouse',
  'refund',
  'coupon',
  'review',
  'ticket',
  'newsletter',
  'payroll',
  'calendar',
  'backup',
];

function catalogue(): AnyToolDefinition[] {
  return TOPICS.map((topic) =>
    defineTool({
      name: `manage_${topic}`,
      description: `Manage ${topic} records.\nLonger explanation of the ${topic} tool that only full profiles send.`,
      input: Type.Object({ id: Type.Optional(Type.String()) }),
      scopes: topic === 'payroll' ? ['hr'] : [],
      routing: { intents: [`manage ${topic}`], domains: [topic], tags: [], examples: [] },
      handler: () => topic,
    }),
  );
}

const user = ToolContext.web('user:1', ['shop']);

describe('ToolRegistry', () => {
  describe('toolsFor', () => {
    it("narrows to the model's budget, keeps what the message is about, and sorts by name", async () => {
      const registry = new ToolRegistry({ tools: catalogue() });
      const turn = await registry.toolsFor(user, {
        provider: 'openai',
        model: 'gpt-4o-mini',
        message: 'Please refund the coupon of my last invoice',
      });
      expect(turn.budget).toBe(8);
      expect(turn.profile).toBe('full');
      expect(turn.ranked).toBe(true);
      expect(turn.names).toHaveLength(8);
      for (const wanted of ['manage_refund', 'manage_coupon', 'manage_invoice']) expect(turn.names).toContain(wanted);
      expect([...turn.names]).toEqual([...turn.names].sort());
      expect(turn.tools[0]).toEqual({
        type: 'function',
        function: { name: turn.names[0], description: expect.any(String), parameters: expect.objectContaining({ type: 'object' }) },
      });
      expect(turn.excluded).toHaveLength(3);
    });

    it('offers only tools the caller may call, and never a denied one', async () => {
      const registry = new ToolRegistry({ tools: catalogue(), deny: ['manage_backup'] });
      const turn = await registry.toolsFor(user, { provider: 'anthropic', model: 'claude-opus-4', maxTools: UNLIMITED });
      expect(turn.names).not.toContain('manage_payroll');
      expect(turn.names).not.toContain('manage_backup');
      expect(turn.names).toHaveLength(10);
      expect(turn.tools[0]).toEqual({
        name: 'manage_calendar',
        description: expect.any(String),
        input_schema: expect.objectContaining({ type: 'object' }),
      });
      expect(await registry.toolsFor(ToolContext.web(null), { provider: 'openai', model: 'gpt-4o' })).toMatchObject({ names: [] });
    });

    it('adds always-included tools on top of the budget', async () => {
      const registry = new ToolRegistry({ tools: catalogue() });
      const turn = await registry.toolsFor(user, {
        provider: 'openai',
        model: 'claude-haiku-4',
        message: 'ticket',
        alwaysInclude: ['MANAGE_BACKUP', 'manage_calendar', 'no_such_tool'],
      });
      expect(turn.budget).toBe(6);
      expect(turn.names).toHaveLength(8);
      expect(turn.names).toContain('manage_backup');
      expect(turn.names).toContain('manage_calendar');
    });

    it('pins a tool the message names', async () => {
      const registry = new ToolRegistry({ tools: catalogue() });
      const turn = await registry.toolsFor(user, { provider: 'openai', model: 'gpt-3.5-turbo', message: 'call manage_newsletter now' });
      expect(turn.pinned).toEqual(['manage_newsletter']);
      expect(turn.names).toContain('manage_newsletter');
    });

    it('sends first-line descriptions and fits the token budget on the minimal profile', async () => {
      const registry = new ToolRegistry({ tools: catalogue() });
      const turn = await registry.toolsFor(user, {
        provider: 'ollama',
        model: 'llama3.1:8b',
        message: 'refund invoice',
        systemPrompt: 'x'.repeat(11_000),
      });
      expect(turn.profile).toBe('minimal');
      const descriptions = turn.tools.map((tool) => (tool as { function: { description: string } }).function.description);
      for (const description of descriptions) expect(description).not.toContain('\n');
      // 11,000 characters of system prompt leave room under 3,000 tokens for only a few tools.
      expect(turn.estimatedTokens).toBeLessThanOrEqual(3_000);
      expect(turn.names.length).toBeGreaterThanOrEqual(1);
      expect(turn.names.length).toBeLessThan(5);
      expect(turn.names).toContain('manage_refund');
    });

    it('offers everything, unranked, when the tools are within budget, in the MCP shape', async () => {
      const registry = new ToolRegistry({ tools: catalogue().slice(0, 3) });
      const turn = await registry.toolsFor(user, { provider: 'mcp', model: 'gpt-4o' });
      expect(turn.ranked).toBe(false);
      expect(turn.names).toEqual(['manage_customer', 'manage_invoice', 'manage_shipment']);
      expect(turn.tools[0]).toMatchObject({ name: 'manage_customer', inputSchema: { type: 'object' } });
    });

    it('is byte-identical for two messages that select the same tools', async () => {
      const registry = new ToolRegistry({ tools: catalogue() });
      const first = await registry.toolsFor(user, { provider: 'openai', model: 'gpt-4o-mini', message: 'refund coupon invoice' });
      const second = await registry.toolsFor(user, { provider: 'openai', model: 'gpt-4o-mini', message: 'invoice coupon refund' });
      expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
    });

    it.each([
      ['no provider', { model: 'gpt-4o' }],
      ['no model', { provider: 'openai' }],
      ['a non-string message', { provider: 'openai', model: 'gpt-4o', message: 42 }],
      ['a fractional maxTools', { provider: 'openai', model: 'gpt-4o', maxTools: 2.5 }],
      ['a history that is not strings', { provider: 'openai', model: 'gpt-4o', history: [{ role: 'user' }] }],
    ])('rejects %s with INVALID_ARGUMENT', async (_label, options) => {
      const registry = new ToolRegistry({ tools: catalogue() });
      await expect(registry.toolsFor(user, options as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });
  });
});
