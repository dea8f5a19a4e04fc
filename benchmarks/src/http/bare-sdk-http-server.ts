import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger as PinoLogger } from 'pino';
import { BENCH_RESULT, BENCH_TOOL_DESCRIPTION, BENCH_TOOL_NAME, benchZodSchema } from '../fixtures/bench-tool.js';
import type { RunningHttpServer } from './running-http-server.js';

function sendJsonRpcError(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** Reads and parses the JSON body, as `express.json()` does in the SDK's examples. */
function readJson(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('error', reject);
    request.once('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

/** A bare SDK `McpServer` serving the benchmark tool (zod strict object), a new one per session as the SDK examples do. */
function createBareMcpServer(logger: PinoLogger | null): McpServer {
  const server = new McpServer({ name: 'bench-server', version: '1.0.0' });
  server.registerTool(BENCH_TOOL_NAME, { description: BENCH_TOOL_DESCRIPTION, inputSchema: benchZodSchema() }, (args) => {
    const startedAt = performance.now();
    const result = { content: [{ type: 'text' as const, text: BENCH_RESULT }] };
    logger?.info(
      { tool: BENCH_TOOL_NAME, principal: 'user:42', channel: 'mcp', took_ms: Math.round(performance.now() - startedAt), args },
      'tool call',
    );
    return result;
  });
  return server;
}

/**
 * The bare SDK HTTP server of the throughput benchmark, written as the SDK's "Streamable HTTP with
 * session management" example is, on `node:http` instead of express: stateful sessions (one
 * `StreamableHTTPServerTransport` and one `McpServer` per session, found by `mcp-session-id`), the
 * body parsed once and handed to the transport, default transport options (SSE responses, no event
 * store). No authentication: the client's `Authorization` header is ignored. With a logger, the
 * tool's handler writes one pino line per call (row 7p's line). With `resumable`, each session's
 * transport gets the SDK examples' `InMemoryEventStore` (as `simpleStreamableHttp.ts` does): a
 * priming event and a stored event per response.
 */
export async function startBareSdkHttpServer(logger: PinoLogger | null, resumable = false): Promise<RunningHttpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if ((request.url ?? '/').split('?')[0] !== '/mcp') return sendJsonRpcError(response, 404, 'Not found');
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (request.method !== 'POST') {
      if (existing === undefined) return sendJsonRpcError(response, 400, 'Bad Request: no valid session id');
      return existing.handleRequest(request, response);
    }
    const body = await readJson(request);
    if (existing !== undefined) return existing.handleRequest(request, response, body);
    if (sessionId !== undefined || !isInitializeRequest(body)) return sendJsonRpcError(response, 400, 'Bad Request: no valid session id');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
      ...(resumable ? { eventStore: new InMemoryEventStore() } : {}),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
    };
    await createBareMcpServer(logger).connect(transport);
    await transport.handleRequest(request, response, body);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) sendJsonRpcError(response, 500, 'Internal server error');
      else response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await Promise.allSettled([...transports.values()].map((transport) => transport.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
