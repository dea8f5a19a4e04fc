// End to end: a real upstream MCP server (a child process on stdio) behind the gateway, served to
// real MCP clients over Streamable HTTP with bearer tokens. What reached the upstream is counted on
// the upstream's side (its call log), so "never reaches the upstream" is observed, not assumed.
import { ApprovalVerdict, InvocationDecision, type ApprovalGate } from '@milpa/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway, parseGatewayConfig, type Gateway } from '../src/index.js';
import { connectClient, errorCode, textOf, toolNames } from './support/gateway-client.js';
import { CallLog, stdioUpstream } from './support/upstream-fixture.js';

const TOKENS = { GW_TEST_READER: 'reader-token-4f1c', GW_TEST_WRITER: 'writer-token-9a2e', GW_TEST_RATER: 'rater-token-77d0' };
const decisions = new Map<string, 'grant' | 'reject'>();
const hostGate: ApprovalGate = {
  check: (request) =>
    (request.arguments['id'] as number) < 0 ? ApprovalVerdict.deny('negative ids are never approved') : ApprovalVerdict.suspend(),
  getResolution: (approval) => {
    const decision = decisions.get(approval.approvalId);
    if (decision === 'grant') return { status: 'granted', approvedBy: ['approver:ana'], changes: null };
    if (decision === 'reject') return { status: 'rejected', reason: 'no', rejectedBy: 'approver:ana' };
    return { status: 'pending' };
  },
};

const log = new CallLog();
let gateway: Gateway;
let url: string;
const clients: Client[] = [];
let reader: Client;
let writer: Client;

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

beforeAll(async () => {
  Object.assign(process.env, TOKENS);
  const config = parseGatewayConfig({
    upstreams: [
      stdioUpstream('up', log, {
        defaults: { scopes: ['up:read'] },
        tools: {
          delete_item: { scopes: ['up:write'], approval: 'host' },
          write_note: { scopes: ['up:write'], requiresConfirmation: true },
          echo: { rateCost: 40 },
          big: { maxResultTokens: 10 },
        },
      }),
    ],
    deny: ['group:hidden'],
    groups: { 'group:hidden': ['up_toggle_extra'] },
    rateLimit: { maxTokens: 100, windowSeconds: 600 },
    server: {
      transport: 'http',
      confirmation: 'token',
      tokens: [
        { tokenEnv: 'GW_TEST_READER', principal: 'agent:reader', scopes: ['up:read'] },
        { tokenEnv: 'GW_TEST_WRITER', principal: 'agent:writer', scopes: ['up:read', 'up:write'] },
        { tokenEnv: 'GW_TEST_RATER', principal: 'agent:rater', scopes: ['up:read'] },
      ],
    },
  });
  gateway = await createGateway(config, {
    approvalGate: hostGate,
    registry: {
      rules: [
        {
          identifier: 'echo.no_secrets',
          tools: ['up_echo'],
          evaluate: ({ arguments: args }) =>
            args['text'] === 'secret' ? InvocationDecision.deny('secret_text') : InvocationDecision.allow(),
        },
      ],
    },
  });
  await gateway.whenReady();
  url = (await gateway.serveHttp()).url;
  reader = await connectClient(url, TOKENS.GW_TEST_READER);
  writer = await connectClient(url, TOKENS.GW_TEST_WRITER);
  clients.push(reader, writer);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await gateway?.close();
});

describe('Gateway (stdio upstream, HTTP clients)', () => {
  describe('tools/list', () => {
    it('offers each caller exactly the tools it may call', async () => {
      expect(await toolNames(reader)).toEqual(['up_big', 'up_echo', 'up_fail', 'up_slow', 'up_whoami']);
      expect(await toolNames(writer)).toEqual(['up_big', 'up_delete_item', 'up_echo', 'up_fail', 'up_slow', 'up_whoami', 'up_write_note']);
    });

    it('carries the upstream schema and marks read-only and mutating tools from its annotations', async () => {
      const tools = (await writer.listTools()).tools;
      const echo = tools.find((tool) => tool.name === 'up_echo');
      expect(echo?.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
      expect(echo?.annotations).toMatchObject({ readOnlyHint: true });
      expect(tools.find((tool) => tool.name === 'up_delete_item')?.annotations).toMatchObject({ destructiveHint: true });
      // No annotations upstream: mutating, the safe side.
      expect(tools.find((tool) => tool.name === 'up_write_note')?.annotations).toMatchObject({ destructiveHint: true });
    });

    it('refuses a client without a token before anything is listed', async () => {
      await expect(connectClient(url, null)).rejects.toThrow();
      await expect(connectClient(url, 'not-a-token')).rejects.toThrow();
    });
  });

  describe('calls that are refused never reach the upstream', () => {
    it('a denied tool is unknown: a protocol error, nothing forwarded', async () => {
      await expect(call(writer, 'up_toggle_extra')).rejects.toBeInstanceOf(McpError);
      expect(log.count('toggle_extra')).toBe(0);
    });

    it('a caller without the scope is answered as for an unknown tool, naming neither the tool nor the scope', async () => {
      const hidden = await call(reader, 'up_delete_item', { id: 1 }).catch((error: unknown) => error);
      const unknown = await call(reader, 'up_no_such_tool', { id: 1 }).catch((error: unknown) => error);
      expect(hidden).toBeInstanceOf(McpError);
      expect((hidden as McpError).code).toBe((unknown as McpError).code);
      expect((hidden as McpError).message.replace('up_delete_item', '<name>')).toBe(
        (unknown as McpError).message.replace('up_no_such_tool', '<name>'),
      );
      expect(log.count('delete_item')).toBe(0);
    });

    it('invalid arguments get VALIDATION_ERROR', async () => {
      const result = await call(reader, 'up_echo', { text: 5 });
      expect(errorCode(result)).toBe('VALIDATION_ERROR');
      expect(log.entries().filter((entry) => entry.tool === 'echo' && entry.args?.['text'] === 5)).toHaveLength(0);
    });

    it('an invocation rule refuses with FORBIDDEN', async () => {
      const result = await call(reader, 'up_echo', { text: 'secret' });
      expect(errorCode(result)).toBe('FORBIDDEN');
      expect(log.entries().filter((entry) => entry.args?.['text'] === 'secret')).toHaveLength(0);
    });

    it("a spent rate budget gets RATE_LIMITED, with the tool's own cost", async () => {
      const rater = await connectClient(url, TOKENS.GW_TEST_RATER);
      clients.push(rater);
      // echo costs 40 of 100 tokens: two calls pass, the third is refused.
      const results = [
        await call(rater, 'up_echo', { text: 'rate' }),
        await call(rater, 'up_echo', { text: 'rate' }),
        await call(rater, 'up_echo', { text: 'rate' }),
      ];
      expect(results.map(errorCode)).toEqual([null, null, 'RATE_LIMITED']);
      expect(log.entries().filter((entry) => entry.args?.['text'] === 'rate')).toHaveLength(2);
    });

    it('a call the approval gate denies gets APPROVAL_DENIED', async () => {
      const result = await call(writer, 'up_delete_item', { id: -1 });
      expect(errorCode(result)).toBe('APPROVAL_DENIED');
      expect(log.count('delete_item')).toBe(0);
    });

    it('a call that needs confirmation runs only on the replay with the token', async () => {
      const asked = await call(writer, 'up_write_note', { text: 'confirmed note' });
      expect(errorCode(asked)).toBe('CONFIRMATION_REQUIRED');
      expect(log.count('write_note')).toBe(0);
      const token = (asked._meta?.['lat.milpa/error'] as { confirm_token: string }).confirm_token;
      const done = await call(writer, 'up_write_note', { text: 'confirmed note', confirm_token: token });
      expect(errorCode(done)).toBeNull();
      expect(log.count('write_note')).toBe(1);
    });
  });

  describe('approval', () => {
    it('runs an approved destructive call on the upstream exactly once', async () => {
      const held = await call(writer, 'up_delete_item', { id: 7 });
      expect(errorCode(held)).toBe('APPROVAL_PENDING');
      const approvalId = (held._meta?.['lat.milpa/error'] as { approval_id: string }).approval_id;
      const early = await call(writer, 'up_delete_item', { id: 7, approval_id: approvalId });
      expect(errorCode(early)).not.toBeNull();
      expect(log.count('delete_item')).toBe(0);

      decisions.set(approvalId, 'grant');
      const resumes = await Promise.all([1, 2, 3].map(() => call(writer, 'up_delete_item', { id: 7, approval_id: approvalId })));
      expect(resumes.filter((result) => errorCode(result) === null)).toHaveLength(1);
      expect(resumes.filter((result) => errorCode(result) === 'APPROVAL_INVALID')).toHaveLength(2);
      expect(log.count('delete_item')).toBe(1);
      expect(log.entries().find((entry) => entry.tool === 'delete_item')?.args).toEqual({ id: 7 });
    });
  });

  describe('forwarding', () => {
    it('returns the upstream content of a successful call', async () => {
      const result = await call(reader, 'up_echo', { text: 'hello upstream' });
      expect(result.isError).not.toBe(true);
      expect(textOf(result)).toBe('hello upstream');
    });

    it('maps an upstream isError result to a TOOL_ERROR with its text', async () => {
      const result = await call(reader, 'up_fail');
      expect(errorCode(result)).toBe('TOOL_ERROR');
      expect(textOf(result)).toContain('the upstream tool failed on purpose');
    });

    it("cuts a result longer than the tool's cap", async () => {
      const result = await call(reader, 'up_big', { n: 1_000 });
      const text = textOf(result);
      // A cap of 40 characters is shorter than the note: the content keeps half of it.
      expect(text.startsWith('x'.repeat(20))).toBe(true);
      expect(text).not.toContain('x'.repeat(21));
      expect(text).toMatch(/\[Result truncated: it was \d+ characters, over the limit of 40\./);
    });

    it('forwards progress and cancels the upstream call when the client aborts', async () => {
      const controller = new AbortController();
      const progress: string[] = [];
      const pending = reader.callTool({ name: 'up_slow', arguments: {} }, undefined, {
        signal: controller.signal,
        onprogress: (update) => {
          progress.push(update.message ?? '');
          controller.abort();
        },
      });
      await expect(pending).rejects.toThrow();
      expect(progress[0]).toMatch(/^started pid=\d+$/);
      await vi.waitFor(() => expect(log.entries().some((entry) => entry.tool === 'slow' && entry.cancelled === true)).toBe(true), {
        timeout: 30_000,
        interval: 50,
      });
    });

    it("never passes the clients' tokens or the gateway's environment to the upstream", async () => {
      const text = textOf(await call(reader, 'up_whoami'));
      const seen = JSON.parse(text) as { env: Record<string, string> };
      for (const token of Object.values(TOKENS)) expect(text).not.toContain(token);
      expect(Object.keys(seen.env).filter((key) => key.startsWith('GW_TEST_'))).toEqual([]);
      expect(seen.env['CALL_LOG']).toBe(log.path);
    });
  });
});
