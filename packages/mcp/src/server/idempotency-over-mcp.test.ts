import { ToolContext, Type, defineTool } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectInMemory } from '../../test/support/connect-in-memory.js';
import { MCP_IDEMPOTENCY_KEY_META_KEY, MCP_IDEMPOTENT_REPLAY_META_KEY } from './tool-call-handler.js';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

function setUp() {
  const registry = new ToolRegistry();
  let invoices = 0;
  const createInvoice = vi.fn(({ order }: { order: number }) => ({ invoice: `inv-${++invoices}`, order }));
  registry.register(
    defineTool({
      name: 'create_invoice',
      description: 'Create an invoice for an order',
      input: Type.Object({ order: Type.Integer() }, { additionalProperties: false }),
      mutating: true,
      requiresConfirmation: false,
      handler: createInvoice,
    }),
  );
  return { registry, createInvoice };
}

async function connectAs(registry: ToolRegistry, principal: string) {
  const { client, close } = await connectInMemory(registry, { context: ({ requestId }) => ToolContext.mcp(requestId, principal, []) });
  cleanups.push(close);
  return client;
}

function withKey(order: number, key: unknown) {
  return { name: 'create_invoice', arguments: { order }, _meta: { [MCP_IDEMPOTENCY_KEY_META_KEY]: key } };
}

describe('idempotency keys over MCP', () => {
  it('a retry with the same key gets the first result back, marked as a replay, and the tool runs once', async () => {
    const { registry, createInvoice } = setUp();
    const client = await connectAs(registry, 'agent:7');

    const first = (await client.callTool(withKey(7, 'order-7-invoice'))) as CallToolResult;
    const retry = (await client.callTool(withKey(7, 'order-7-invoice'))) as CallToolResult;

    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toEqual({ invoice: 'inv-1', order: 7 });
    expect(first._meta?.[MCP_IDEMPOTENT_REPLAY_META_KEY]).toBeUndefined();
    expect(retry.isError).toBeFalsy();
    expect(retry.structuredContent).toEqual({ invoice: 'inv-1', order: 7 });
    expect(retry._meta?.[MCP_IDEMPOTENT_REPLAY_META_KEY]).toBe(true);
    expect(createInvoice).toHaveBeenCalledTimes(1);
  });

  it('refuses the same key with other arguments (CONFLICT) and runs nothing more', async () => {
    const { registry, createInvoice } = setUp();
    const client = await connectAs(registry, 'agent:7');
    await client.callTool(withKey(7, 'key-1'));

    const conflict = (await client.callTool(withKey(8, 'key-1'))) as CallToolResult;
    expect(conflict.isError).toBe(true);
    expect(conflict._meta?.['lat.milpa/error']).toMatchObject({ code: 'CONFLICT' });
    expect(createInvoice).toHaveBeenCalledTimes(1);
  });

  it('scopes keys to the caller: another principal with the same key runs its own call', async () => {
    const { registry, createInvoice } = setUp();
    const ana = await connectAs(registry, 'user:ana');
    const ben = await connectAs(registry, 'user:ben');

    const forAna = (await ana.callTool(withKey(7, 'shared-key'))) as CallToolResult;
    const forBen = (await ben.callTool(withKey(7, 'shared-key'))) as CallToolResult;
    expect(forAna.structuredContent).toEqual({ invoice: 'inv-1', order: 7 });
    expect(forBen.structuredContent).toEqual({ invoice: 'inv-2', order: 7 });
    expect(forBen._meta?.[MCP_IDEMPOTENT_REPLAY_META_KEY]).toBeUndefined();
    expect(createInvoice).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['a number', 42],
    ['an empty string', ''],
    ['a string with a control character', 'a\nb'],
    ['a string over 255 characters', 'k'.repeat(256)],
  ])('refuses %s as a key with a validation error, and runs nothing', async (_label, key) => {
    const { registry, createInvoice } = setUp();
    const client = await connectAs(registry, 'agent:7');

    const refused = (await client.callTool(withKey(7, key))) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(refused._meta?.['lat.milpa/error']).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(createInvoice).not.toHaveBeenCalled();
  });

  it('without a key, every call runs', async () => {
    const { registry, createInvoice } = setUp();
    const client = await connectAs(registry, 'agent:7');
    await client.callTool({ name: 'create_invoice', arguments: { order: 7 } });
    await client.callTool({ name: 'create_invoice', arguments: { order: 7 } });
    expect(createInvoice).toHaveBeenCalledTimes(2);
  });
});
