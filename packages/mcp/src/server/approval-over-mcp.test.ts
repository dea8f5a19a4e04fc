import {
  ApprovalVerdict,
  ToolContext,
  Type,
  defineTool,
  type ApprovalGate,
  type ApprovalRequest,
  type ApprovalResolution,
} from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectInMemory } from '../../test/support/connect-in-memory.js';
import { MCP_REASON_META_KEY } from './tool-call-handler.js';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

function setUp() {
  const decisions = new Map<string, ApprovalResolution>();
  const asked: ApprovalRequest[] = [];
  const gate: ApprovalGate = {
    check: (request) => {
      asked.push(request);
      return ApprovalVerdict.suspend({ message: 'A manager must approve deletions.' });
    },
    getResolution: (approval) => decisions.get(approval.approvalId) ?? { status: 'pending' },
  };
  const registry = new ToolRegistry({ approvalGate: gate });
  const archive = vi.fn(({ id }: { id: number }) => ({ archived: id }));
  registry.register(
    defineTool({
      name: 'archive_note',
      description: 'Archive a note',
      input: Type.Object({ id: Type.Integer() }, { additionalProperties: false }),
      mutating: true,
      handler: archive,
    }),
  );
  return { registry, archive, decisions, asked };
}

async function connectAs(registry: ToolRegistry, principal: string) {
  const { client, close } = await connectInMemory(registry, { context: ({ requestId }) => ToolContext.mcp(requestId, principal, []) });
  cleanups.push(close);
  return client;
}

function errorOf(result: unknown): Record<string, unknown> {
  const call = result as CallToolResult;
  expect(call.isError).toBe(true);
  return call._meta?.['lat.milpa/error'] as Record<string, unknown>;
}

describe('approval over MCP', () => {
  it("gives the held call the agent's reason from the request's _meta, and never one from the arguments", async () => {
    const { registry, asked } = setUp();
    const client = await connectAs(registry, 'agent:7');
    await client.callTool({
      name: 'archive_note',
      arguments: { id: 7 },
      _meta: { [MCP_REASON_META_KEY]: 'The user asked to archive it.' },
    });
    expect(asked[0]?.reason).toBe('The user asked to archive it.');

    const smuggled = await client.callTool({ name: 'archive_note', arguments: { id: 8, reason: 'Approve this at once.' } });
    expect((smuggled as CallToolResult).isError).toBe(true);
    expect(asked.length).toBe(1);
    await client.callTool({ name: 'archive_note', arguments: { id: 9 }, _meta: { [MCP_REASON_META_KEY]: { text: 'not a string' } } });
    expect(asked[1]?.reason).toBeNull();
    await client.callTool({ name: 'archive_note', arguments: { id: 10 }, _meta: { [MCP_REASON_META_KEY]: 'r'.repeat(3_000) } });
    expect(asked[2]?.reason).toBe(`${'r'.repeat(1_000)}… (3000 characters)`);
  });

  it('returns a held call as a tool error naming the approval_id and how to resume; the resume runs once', async () => {
    const { registry, archive, decisions } = setUp();
    const client = await connectAs(registry, 'agent:7');

    const held = (await client.callTool({ name: 'archive_note', arguments: { id: 7 } })) as CallToolResult;
    const details = errorOf(held);
    expect(details).toMatchObject({
      code: 'APPROVAL_PENDING',
      approval_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      expires_at: expect.any(String),
    });
    expect(held.structuredContent).toEqual(details);
    const approvalId = details['approval_id'] as string;
    const text = (held.content[0] as { text: string }).text;
    expect(text).toContain('A manager must approve deletions.');
    expect(text).toContain(`call 'archive_note' again with the same arguments and approval_id "${approvalId}"`);
    expect(archive).not.toHaveBeenCalled();

    expect(errorOf(await client.callTool({ name: 'archive_note', arguments: { id: 7, approval_id: approvalId } }))).toMatchObject({
      code: 'APPROVAL_PENDING',
      approval_id: approvalId,
    });

    decisions.set(approvalId, { status: 'granted', approvedBy: ['user:manager'], changes: null });
    const done = (await client.callTool({ name: 'archive_note', arguments: { id: 7, approval_id: approvalId } })) as CallToolResult;
    expect(done.isError).toBeFalsy();
    expect(done.structuredContent).toEqual({ archived: 7 });
    expect(archive).toHaveBeenCalledTimes(1);

    const again = errorOf(await client.callTool({ name: 'archive_note', arguments: { id: 7, approval_id: approvalId } }));
    expect(again).toEqual({ code: 'APPROVAL_INVALID', approval_refusal: 'used' });
    expect(archive).toHaveBeenCalledTimes(1);
  });

  it('refuses a resume by another MCP principal, with changed arguments or with a made-up id, and runs nothing', async () => {
    const { registry, archive, decisions } = setUp();
    const requester = await connectAs(registry, 'agent:7');
    const other = await connectAs(registry, 'agent:8');
    const approvalId = errorOf(await requester.callTool({ name: 'archive_note', arguments: { id: 7 } }))['approval_id'] as string;
    decisions.set(approvalId, { status: 'granted', approvedBy: ['user:manager'], changes: null });

    expect(errorOf(await other.callTool({ name: 'archive_note', arguments: { id: 7, approval_id: approvalId } }))).toMatchObject({
      approval_refusal: 'principal_mismatch',
    });
    expect(errorOf(await requester.callTool({ name: 'archive_note', arguments: { id: 8, approval_id: approvalId } }))).toMatchObject({
      approval_refusal: 'arguments_changed',
    });
    expect(errorOf(await requester.callTool({ name: 'archive_note', arguments: { id: 7, approval_id: '0'.repeat(32) } }))).toMatchObject({
      approval_refusal: 'not_found',
    });
    expect(archive).not.toHaveBeenCalled();

    expect(
      ((await requester.callTool({ name: 'archive_note', arguments: { id: 7, approval_id: approvalId } })) as CallToolResult).isError,
    ).toBeFalsy();
    expect(archive).toHaveBeenCalledTimes(1);
  });

  it("returns a rejection as APPROVAL_DENIED with the approver's reason", async () => {
    const { registry, archive, decisions } = setUp();
    const client = await connectAs(registry, 'agent:7');
    const approvalId = errorOf(await client.callTool({ name: 'archive_note', arguments: { id: 7 } }))['approval_id'] as string;
    decisions.set(approvalId, { status: 'rejected', reason: 'keep it', rejectedBy: 'user:manager' });
    const refused = (await client.callTool({ name: 'archive_note', arguments: { id: 7, approval_id: approvalId } })) as CallToolResult;
    expect(errorOf(refused)).toEqual({ code: 'APPROVAL_DENIED' });
    expect((refused.content[0] as { text: string }).text).toContain('rejected by user:manager: keep it');
    expect(archive).not.toHaveBeenCalled();
  });
});
