import { ToolContext } from '@milpa/core';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ProgressNotificationSchema,
  type CreateMessageRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../../test/support/connect-in-memory.js';
import { createNotesRegistry } from '../../test/support/notes-registry.js';
import { CLOSE_SSE_STREAM } from './close-mcp-sse-stream.js';
import { LogLevelThreshold } from './log-level-threshold.js';
import { McpToolCaller, type McpRequestExtra } from './mcp-tool-caller.js';

const member = ({ requestId }: { requestId: string }) => ToolContext.mcp(requestId, 'user:1', ['notes:read']);
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

async function setUp(capabilities: Parameters<typeof connectInMemory>[2] = {}) {
  const { registry, recorder } = createNotesRegistry();
  const { client, close } = await connectInMemory(registry, { context: member }, capabilities);
  cleanups.push(close);
  return { client, recorder };
}

describe('McpToolCaller', () => {
  describe('capabilities', () => {
    it('declares only what the client declared and progress only with a progress token', async () => {
      const { client, recorder } = await setUp({ elicitation: {} });
      await client.callTool({ name: 'count', arguments: {} });
      expect(recorder.callers.get('count')?.capabilities).toEqual({ progress: false, logging: true, elicitation: true, sampling: false });
      await client.callTool({ name: 'count', arguments: {} }, undefined, { onprogress: () => undefined });
      expect(recorder.callers.get('count')?.capabilities).toEqual({ progress: true, logging: true, elicitation: true, sampling: false });
    });

    it('does not claim elicitation for a client that only supports URL mode', async () => {
      const { client, recorder } = await setUp({ elicitation: { url: {} } });
      await client.callTool({ name: 'count', arguments: {} });
      expect(recorder.callers.get('count')?.capabilities.elicitation).toBe(false);
    });
  });

  describe('reportProgress', () => {
    it('sends progress notifications with the request’s token, total and message', async () => {
      const { client } = await setUp();
      const progress: unknown[] = [];
      const result = await client.callTool({ name: 'count', arguments: {} }, undefined, {
        onprogress: (update) => void progress.push(update),
      });
      expect(progress).toEqual([
        { progress: 0, total: 100 },
        { progress: 50, total: 100, message: 'half way' },
        { progress: 100, total: 100 },
      ]);
      expect(result.structuredContent).toEqual({ counted: 3 });
    });

    it('sends nothing when the request carried no progress token', async () => {
      const { client } = await setUp();
      const seen: unknown[] = [];
      client.setNotificationHandler(ProgressNotificationSchema, (notification) => void seen.push(notification));
      await client.callTool({ name: 'count', arguments: {} });
      expect(seen).toEqual([]);
    });
  });

  describe('elicit', () => {
    it('returns the accepted content', async () => {
      const { client } = await setUp({ elicitation: {} });
      client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }));
      const result = await client.callTool({ name: 'ask_name', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Hello Ada' }]);
    });

    it('passes decline through', async () => {
      const { client } = await setUp({ elicitation: {} });
      client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
      const result = await client.callTool({ name: 'ask_name', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'No name (decline)' }]);
    });

    it('reports unsupported without sending a request when the client cannot elicit', async () => {
      const { client } = await setUp();
      const result = await client.callTool({ name: 'ask_name', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'No name (unsupported)' }]);
    });

    it('rejects (an INTERNAL_ERROR result) when the answer does not match the requested schema', async () => {
      const { client } = await setUp({ elicitation: {} });
      client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 42 } }));
      const result = await client.callTool({ name: 'ask_name', arguments: {} });
      expect(result).toMatchObject({ isError: true, structuredContent: { code: 'INTERNAL_ERROR' } });
      expect((result.content as { text: string }[])[0]?.text).toContain('does not match requested schema');
    });
  });

  describe('sample', () => {
    it("asks the client's model and returns its text and model", async () => {
      const { client } = await setUp({ sampling: {} });
      const requests: CreateMessageRequest[] = [];
      client.setRequestHandler(CreateMessageRequestSchema, (request) => {
        requests.push(request);
        return { role: 'assistant', content: { type: 'text', text: 'Short.' }, model: 'test-model' };
      });
      const result = await client.callTool({ name: 'summarize', arguments: { text: 'A long story' } });
      expect(result.content).toEqual([{ type: 'text', text: 'Short. (test-model)' }]);
      expect(requests[0]?.params).toMatchObject({
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarize: A long story' } }],
        maxTokens: 50,
        systemPrompt: 'Be brief',
      });
    });

    it('reports unsupported when the client cannot sample', async () => {
      const { client } = await setUp();
      const result = await client.callTool({ name: 'summarize', arguments: { text: 'x' } });
      expect(result.content).toEqual([{ type: 'text', text: 'sampling unsupported' }]);
    });
  });

  describe('cancellation', () => {
    it("aborts the handler's signal when the client cancels the request", async () => {
      const { client, recorder } = await setUp();
      const controller = new AbortController();
      const call = client.callTool({ name: 'wait_for_abort', arguments: {} }, undefined, { signal: controller.signal });
      await recorder.started;
      controller.abort('user pressed stop');
      await expect(call).rejects.toThrow();
      await expect(recorder.aborted).resolves.toBeDefined();
    });

    it("aborts the handler's signal when the connection closes", async () => {
      const { registry, recorder } = createNotesRegistry();
      const { client, close } = await connectInMemory(registry, { context: member });
      const call = client.callTool({ name: 'wait_for_abort', arguments: {} }).catch((error: unknown) => error);
      await recorder.started;
      await close();
      await expect(recorder.aborted).resolves.toBeDefined();
      expect(await call).toBeInstanceOf(Error);
    });

    it('stops sending progress and log messages once the request is aborted', async () => {
      const { client, recorder } = await setUp();
      const progress: unknown[] = [];
      const controller = new AbortController();
      const call = client
        .callTool({ name: 'wait_for_abort', arguments: {} }, undefined, {
          signal: controller.signal,
          onprogress: (update) => void progress.push(update),
        })
        .catch(() => undefined);
      await recorder.started;
      controller.abort();
      await recorder.aborted;
      await recorder.callers.get('wait_for_abort')?.reportProgress(1, 2);
      await call;
      expect(progress).toEqual([]);
    });
  });

  describe('closeSseStream', () => {
    function callerWith(extra: Partial<McpRequestExtra>) {
      const server = new Server({ name: 'test', version: '1.0.0' }, { capabilities: {} });
      const full = {
        signal: new AbortController().signal,
        requestId: 1,
        sendNotification: async () => undefined,
        ...extra,
      } as McpRequestExtra;
      return new McpToolCaller(server, full, new LogLevelThreshold(), 'tool');
    }

    it("calls the transport's closeSSEStream and returns true when the transport offers it", () => {
      let closes = 0;
      const caller = callerWith({ closeSSEStream: () => void (closes += 1) });
      expect(caller.closeSseStream()).toBe(true);
      expect(caller[CLOSE_SSE_STREAM]()).toBe(true);
      expect(closes).toBe(2);
    });

    it('returns false when the transport offers no closeSSEStream', () => {
      expect(callerWith({}).closeSseStream()).toBe(false);
    });

    it('returns false, closing nothing, once the call is aborted', () => {
      const controller = new AbortController();
      controller.abort();
      let closes = 0;
      const caller = callerWith({ signal: controller.signal, closeSSEStream: () => void (closes += 1) });
      expect(caller.closeSseStream()).toBe(false);
      expect(closes).toBe(0);
    });
  });
});
