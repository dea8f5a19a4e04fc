import { MilpaError, ToolContext, Type, defineTool, type ApprovalStore } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { describe, expect, it, vi } from 'vitest';
import { aiSdkTools, type AiSdkTool } from './ai-sdk-tools.js';
import { sdkCall } from '../../test/sdk-call.js';
import type { AiSdkToolsOptions } from './ai-sdk-tools-options.js';

type NeedsApproval = Extract<NonNullable<AiSdkTool['needsApproval']>, (...args: never[]) => unknown>;

const reader = ToolContext.web('user:1', ['notes:read']);

function registryWith(count: number): ToolRegistry {
  const registry = new ToolRegistry();
  for (let index = 0; index < count; index += 1) {
    registry.register(
      defineTool({
        name: `tool_${String(index).padStart(2, '0')}`,
        description: `Tool number ${index}`,
        title: index === 0 ? 'The first tool' : undefined,
        input: Type.Object({ id: Type.String({ description: 'The id' }) }),
        scopes: ['notes:read'],
        mutating: false,
        handler: ({ id }) => ({ id }),
      }),
    );
  }
  return registry;
}

describe('aiSdkTools', () => {
  describe('options', () => {
    it('rejects a registry that cannot govern calls and options without a ToolContext', async () => {
      await expect(aiSdkTools({} as never, { context: reader })).rejects.toThrow(MilpaError);
      await expect(aiSdkTools(registryWith(1), { context: { principal: 'x' } } as never)).rejects.toThrow(/ToolContext/);
      await expect(aiSdkTools(registryWith(1), null as never)).rejects.toThrow(/options/);
    });

    it('rejects an unknown approval mode, a bad TTL, approver or resolve tool', async () => {
      const bad: Partial<AiSdkToolsOptions>[] = [
        { approval: 'never' as never },
        { approvalTtlSeconds: 0 },
        { approvalTtlSeconds: Number.NaN },
        { approver: 'ana' as never },
        { resolveTool: '' },
      ];
      for (const options of bad) {
        await expect(aiSdkTools(registryWith(1), { context: reader, ...options })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      }
    });
  });

  describe('tool list', () => {
    it('builds each tool from its definition: description, title and a plain JSON Schema input', async () => {
      const tools = await aiSdkTools(registryWith(1), { context: reader });
      const only = tools['tool_00']!;
      expect(only.description).toBe('Tool number 0');
      expect(only.title).toBe('The first tool');
      const schema = await (only.inputSchema as { jsonSchema: unknown }).jsonSchema;
      expect(schema).toMatchObject({ type: 'object', properties: { id: { type: 'string', description: 'The id' } }, required: ['id'] });
      expect(Object.getOwnPropertySymbols(schema as object)).toEqual([]);
    });

    it('offers nothing to a caller without the scopes', async () => {
      const tools = await aiSdkTools(registryWith(3), { context: ToolContext.web('user:2', ['other']) });
      expect(Object.keys(tools)).toEqual([]);
    });

    it("narrows the list to the model's per-turn budget, keeping the tools the message names", async () => {
      const registry = registryWith(20);
      const all = await aiSdkTools(registry, { context: reader });
      expect(Object.keys(all)).toHaveLength(20);
      const turn = await aiSdkTools(registry, {
        context: reader,
        model: { provider: 'openai.chat', modelId: 'gpt-4o-mini' },
        message: 'use tool_17 please',
      });
      expect(Object.keys(turn).length).toBeLessThan(20);
      expect(Object.keys(turn)).toContain('tool_17');
      const byId = await aiSdkTools(registry, { context: reader, model: 'gpt-4o-mini', alwaysInclude: ['tool_03'] });
      expect(Object.keys(byId)).toContain('tool_03');
    });
  });

  describe('execute', () => {
    it('runs the call with the tool call id as request id', async () => {
      const registry = registryWith(1);
      const call = vi.spyOn(registry, 'call');
      const tools = await aiSdkTools(registry, { context: reader });
      const output = await tools['tool_00']!.execute!({ id: 'x' }, sdkCall('call_abc'));
      expect(output).toEqual({ ok: true, data: { id: 'x' } });
      expect(call.mock.calls[0]?.[2]?.requestId).toBe('call_abc');
      expect(call.mock.calls[0]?.[2]?.principal).toBe('user:1');
    });

    it('answers a fault in the adapter as INTERNAL_ERROR instead of throwing', async () => {
      const registry = registryWith(1);
      vi.spyOn(registry, 'call').mockRejectedValue(new Error('boom'));
      const tools = await aiSdkTools(registry, { context: reader });
      await expect(tools['tool_00']!.execute!({ id: 'x' }, sdkCall('c1'))).resolves.toMatchObject({
        ok: false,
        code: 'INTERNAL_ERROR',
        message: expect.stringContaining('boom'),
      });
    });
  });

  describe('needsApproval', () => {
    it('still asks a person when the ledger fails, and that approval then cannot run the call', async () => {
      const registry = new ToolRegistry();
      const handler = vi.fn(() => 'gone');
      registry.register(
        defineTool({ name: 'wipe', description: 'Wipe', input: Type.Object({}), mutating: true, requiresConfirmation: true, handler }),
      );
      const broken: ApprovalStore = {
        open: () => {
          throw new Error('ledger down');
        },
        get: () => {
          throw new Error('ledger down');
        },
        redeem: () => {
          throw new Error('ledger down');
        },
      };
      const tools = await aiSdkTools(registry, { context: ToolContext.cli(), approvalStore: broken });
      const needs = tools['wipe']!.needsApproval as NeedsApproval;
      expect(await needs({}, sdkCall('w1'))).toBe(true);
      const messages = [
        {
          role: 'assistant' as const,
          content: [
            { type: 'tool-call' as const, toolCallId: 'w1', toolName: 'wipe', input: {} },
            { type: 'tool-approval-request' as const, approvalId: 'a1', toolCallId: 'w1' },
          ],
        },
        { role: 'tool' as const, content: [{ type: 'tool-approval-response' as const, approvalId: 'a1', approved: true }] },
      ];
      await expect(tools['wipe']!.execute!({}, sdkCall('w1', messages))).resolves.toMatchObject({
        ok: false,
        code: 'STORE_UNAVAILABLE',
      });
      expect(handler).not.toHaveBeenCalled();
    });
  });
});
