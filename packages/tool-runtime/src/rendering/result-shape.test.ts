import { ToolContext, ToolResult, Type, defineTool } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../registry/tool-registry.js';
import { readRuntimeResultShape } from './result-shape.js';

// The shapes the registry writes: a confirm-token request and a plan-mode result.
const tokenRequest = new ToolResult(
  true,
  {
    requires_confirmation: true,
    confirm_token: 'f'.repeat(32),
    action_summary: 'publish(value=42)',
    expires_at: '2026-08-15T14:08:11+00:00',
  },
  'publish(value=42)',
  null,
  { tool: 'publish', took_ms: 0, type: 'confirmation', requires_confirmation: true },
);
const planResult = ToolResult.success(
  {
    plan: {
      tool: 'publish',
      mutating: true,
      requires_confirmation: true,
      scopes_required: [],
      timeout: 30,
      timeout_ms: 30000,
      args: { value: 42 },
    },
  },
  null,
  { tool: 'publish', took_ms: 0 },
);

describe('readRuntimeResultShape', () => {
  it('recognises a confirm-token request with its token, summary, expiry and tool', () => {
    expect(readRuntimeResultShape(tokenRequest)).toEqual({
      kind: 'confirmation-request',
      request: { token: 'f'.repeat(32), summary: 'publish(value=42)', expiresAt: '2026-08-15T14:08:11+00:00', tool: 'publish' },
    });
  });

  it('recognises a plan-mode result and keeps its fields in order without the tool, the deadline once', () => {
    const shape = readRuntimeResultShape(planResult);
    expect(shape?.kind).toBe('plan');
    expect(shape?.kind === 'plan' && shape.plan.fields).toEqual([
      ['mutating', true],
      ['requires_confirmation', true],
      ['scopes_required', []],
      ['timeout', '30 s'],
      ['args', { value: 42 }],
    ]);
  });

  it('reads the deadline from timeout_ms when only that key is present, and keeps odd values as they are', () => {
    const plan = (fields: Record<string, unknown>) => readRuntimeResultShape(ToolResult.success({ plan: { tool: 'publish', ...fields } }));
    expect(plan({ timeout_ms: 1500, args: {} })).toMatchObject({
      plan: {
        fields: [
          ['timeout', '1.5 s'],
          ['args', {}],
        ],
      },
    });
    expect(plan({ timeout: 'soon', args: {} })).toMatchObject({
      plan: {
        fields: [
          ['timeout', 'soon'],
          ['args', {}],
        ],
      },
    });
  });

  it('recognises content blocks', () => {
    expect(readRuntimeResultShape(ToolResult.content([{ type: 'text', text: 'hi' }]))).toEqual({
      kind: 'content',
      blocks: [{ type: 'text', text: 'hi' }],
    });
  });

  it('returns null for an ordinary success, a host confirmation and a failure carrying a token', () => {
    expect(readRuntimeResultShape(ToolResult.success({ published: 42 }))).toBeNull();
    expect(readRuntimeResultShape(ToolResult.confirmation('Sure?', { id: 1 }, 'delete', 'note', 1))).toBeNull();
    expect(readRuntimeResultShape(new ToolResult(false, { confirm_token: 't' }, null, 'no'))).toBeNull();
    expect(readRuntimeResultShape(ToolResult.success({ plan: 'gold' }))).toBeNull();
  });

  describe('with the runtime ToolRegistry', () => {
    function registryWithPublish(): ToolRegistry {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(
        defineTool({
          name: 'publish',
          description: 'Publish a value',
          input: Type.Object({ value: Type.Integer() }),
          mutating: true,
          handler: ({ value }) => ({ published: value }),
        }),
      );
      return registry;
    }

    it('recognises the confirm-token request a telegram call receives', async () => {
      const result = await registryWithPublish().call('publish', { value: 42 }, ToolContext.telegram(7, 'u1'));
      const shape = readRuntimeResultShape(result);
      expect(shape?.kind).toBe('confirmation-request');
      expect(shape?.kind === 'confirmation-request' && shape.request).toMatchObject({ token: result.getConfirmToken(), tool: 'publish' });
    });

    it('recognises the plan a plan-mode call receives', async () => {
      const result = await registryWithPublish().call('publish', { value: 42 }, ToolContext.cli().asPlan());
      const shape = readRuntimeResultShape(result);
      expect(shape?.kind).toBe('plan');
      expect(shape?.kind === 'plan' && Object.fromEntries(shape.plan.fields)).toMatchObject({ mutating: true, args: { value: 42 } });
    });

    it('leaves an executed call alone', async () => {
      const result = await registryWithPublish().call('publish', { value: 1 }, ToolContext.cli());
      expect(result.data).toEqual({ published: 1 });
      expect(readRuntimeResultShape(result)).toBeNull();
    });
  });
});
