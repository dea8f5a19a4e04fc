import { ToolContext, ToolResult, defineTool, unsupportedCaller, type ToolCaller } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../../test/support/connect-in-memory.js';
import { BoundedEventStore } from '../http/bounded-event-store.js';
import { createMcpServer } from '../server/create-mcp-server.js';
import { CLOSE_SSE_STREAM, closeMcpSseStream } from './close-mcp-sse-stream.js';

const URL_OF_SERVER = 'http://127.0.0.1/mcp';
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

/** A registry whose `poll_me` tool closes its stream, logs while the client is away, then answers. */
function pollingRegistry() {
  const outcomes: boolean[] = [];
  const registry = new ToolRegistry();
  registry.register(
    defineTool({
      name: 'poll_me',
      description: 'Closes its stream, then finishes',
      handler: async (_args, { caller }) => {
        const closed = closeMcpSseStream(caller);
        outcomes.push(closed);
        await caller.log('info', 'sent while the client was away');
        await new Promise((resolve) => setTimeout(resolve, 5));
        return ToolResult.content([{ type: 'text', text: `closed=${String(closed)}` }]);
      },
    }),
  );
  return { registry, outcomes };
}

interface Served {
  readonly client: Client;
  readonly requests: { method: string; lastEventId: string | null }[];
  readonly post: (body: unknown, protocolVersion: string) => Promise<Response>;
}

/** An SDK client and a Milpa server over Streamable HTTP, in memory: the client's fetch calls the transport. */
async function serve(registry: ToolRegistry, eventStore: BoundedEventStore | undefined): Promise<Served> {
  const server = createMcpServer(registry, { context: ({ requestId }) => ToolContext.mcp(requestId, 'user:1', []) });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => 'session-1',
    ...(eventStore === undefined ? {} : { eventStore, retryInterval: 1 }),
  });
  await server.connect(transport);
  const requests: Served['requests'] = [];
  const fetchThroughTransport = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    requests.push({ method: request.method, lastEventId: request.headers.get('last-event-id') });
    return transport.handleRequest(request);
  };
  const client = new Client({ name: 'polling-client', version: '1.0.0' });
  const clientTransport = new StreamableHTTPClientTransport(new URL(URL_OF_SERVER), { fetch: fetchThroughTransport });
  await client.connect(clientTransport);
  cleanups.push(async () => {
    await client.close();
    await server.close();
  });
  const post = (body: unknown, protocolVersion: string) =>
    transport.handleRequest(
      new Request(URL_OF_SERVER, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': 'session-1',
          'mcp-protocol-version': protocolVersion,
        },
        body: JSON.stringify(body),
      }),
    );
  return { client, requests, post };
}

describe('closeMcpSseStream', () => {
  it('closes the call’s stream; the client resumes with Last-Event-ID and still gets the log and the result', async () => {
    const { registry, outcomes } = pollingRegistry();
    const { client, requests } = await serve(registry, new BoundedEventStore());
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params.data));

    const result = await client.callTool({ name: 'poll_me', arguments: {} });

    expect(outcomes).toEqual([true]);
    expect(result.content).toEqual([{ type: 'text', text: 'closed=true' }]);
    expect(logs).toEqual(['sent while the client was away']);
    const resumes = requests.filter((request) => request.method === 'GET' && request.lastEventId !== null);
    expect(resumes).toHaveLength(1);
  });

  it('returns false and leaves the stream open when the server keeps no event store', async () => {
    const { registry, outcomes } = pollingRegistry();
    const { client, requests } = await serve(registry, undefined);
    const result = await client.callTool({ name: 'poll_me', arguments: {} });
    expect(outcomes).toEqual([false]);
    expect(result.content).toEqual([{ type: 'text', text: 'closed=false' }]);
    expect(requests.filter((request) => request.method === 'GET' && request.lastEventId !== null)).toEqual([]);
  });

  it('returns false when the request’s protocol version predates resumable streams', async () => {
    const { registry, outcomes } = pollingRegistry();
    const { post } = await serve(registry, new BoundedEventStore());
    const response = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'poll_me', arguments: {} } }, '2025-06-18');
    const body = await response.text();
    expect(outcomes).toEqual([false]);
    expect(body).toContain('closed=false');
  });

  it('returns false over a connection without HTTP streams', async () => {
    const { registry, outcomes } = pollingRegistry();
    const { client, close } = await connectInMemory(registry, { context: ({ requestId }) => ToolContext.mcp(requestId, 'user:1', []) });
    cleanups.push(close);
    await client.callTool({ name: 'poll_me', arguments: {} });
    expect(outcomes).toEqual([false]);
  });

  it('returns false for a caller that is not an MCP caller', () => {
    const impostor = { ...unsupportedCaller, [CLOSE_SSE_STREAM]: 'yes' } as unknown as ToolCaller;
    expect(closeMcpSseStream(unsupportedCaller)).toBe(false);
    expect(closeMcpSseStream(impostor)).toBe(false);
    expect(closeMcpSseStream(null as unknown as ToolCaller)).toBe(false);
  });

  it('recognises a caller of another copy of @milpa/mcp by its Symbol.for key', () => {
    let closed = 0;
    const foreign = {
      ...unsupportedCaller,
      [Symbol.for('milpa.mcp.closeSseStream')]: () => {
        closed += 1;
        return true;
      },
    } as unknown as ToolCaller;
    expect(closeMcpSseStream(foreign)).toBe(true);
    expect(closed).toBe(1);
  });
});
