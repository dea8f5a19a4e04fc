// Policies decided per tool in one gateway: a deadline (the pipeline answers TIMEOUT and the
// upstream is told to stop), and approval by the terminal gate for a destructive tool.
import { ApprovalVerdict, ToolContext, type ApprovalGate } from '@milpa/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway, parseGatewayConfig, type Gateway } from '../src/index.js';
import { CallLog, stdioUpstream } from './support/upstream-fixture.js';

const log = new CallLog();
const asked: string[] = [];
// Stands in for the terminal: it records what it was asked and says no.
const terminal: ApprovalGate = {
  check: (request) => {
    asked.push(request.toolName);
    return ApprovalVerdict.deny('the operator said no');
  },
};
let gateway: Gateway;

beforeAll(async () => {
  gateway = await createGateway(
    parseGatewayConfig(
      {
        upstreams: [
          stdioUpstream('up', log, {
            tools: { slow: { timeoutMs: 300 }, delete_item: { approval: 'terminal' }, echo: { approval: 'terminal' } },
          }),
        ],
      },
      { env: {} },
    ),
    { terminalApprovalGate: terminal },
  );
  await gateway.whenReady();
});

afterAll(async () => {
  await gateway?.close();
});

describe('Gateway policies', () => {
  it("answers TIMEOUT at the tool's deadline and cancels the call on the upstream", async () => {
    const result = await gateway.registry.call('up_slow', {}, ToolContext.cli());
    expect(result.getCode()).toBe('TIMEOUT');
    await vi.waitFor(() => expect(log.entries().some((entry) => entry.tool === 'slow' && entry.cancelled === true)).toBe(true), {
      timeout: 30_000,
      interval: 50,
    });
  });

  it("asks the terminal gate about a destructive tool with approval: 'terminal', and a refusal never reaches the upstream", async () => {
    const result = await gateway.registry.call('up_delete_item', { id: 3 }, ToolContext.cli());
    expect(result.getCode()).toBe('APPROVAL_DENIED');
    expect(asked).toEqual(['up_delete_item']);
    expect(log.count('delete_item')).toBe(0);
  });

  it('never asks about a read-only tool, whatever its approval setting', async () => {
    const result = await gateway.registry.call('up_echo', { text: 'read only' }, ToolContext.cli());
    expect(result.success).toBe(true);
    expect(asked).not.toContain('up_echo');
    expect(log.count('echo')).toBe(1);
  });
});
