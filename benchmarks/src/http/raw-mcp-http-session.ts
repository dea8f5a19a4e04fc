import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { BENCH_ARGS, BENCH_RESULT, BENCH_TOOL_NAME } from '../fixtures/bench-tool.js';
import type { McpLoadSession } from './mcp-load-session.js';

interface HttpAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

function send(
  url: URL,
  agent: Agent,
  method: 'POST' | 'DELETE',
  headers: Record<string, string>,
  body: string | null,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        agent,
        method,
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: body === null ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('error', reject);
        response.once('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    request.once('error', reject);
    request.end(body ?? undefined);
  });
}

// What a successful call's SSE `data:` line contains, in the key order both servers write.
const EXPECTED_TEXT = `"text":"${BENCH_RESULT}"`;

/**
 * An MCP session over raw HTTP requests on a keep-alive agent, doing what the SDK's
 * `StreamableHTTPClientTransport` does on the wire (the same headers, `initialize` then
 * `notifications/initialized`, the session id and protocol version on every later request) and
 * nothing else: no standalone GET stream, no schema validation of responses, the SSE answer
 * checked by a substring search. It is the light load generator that leaves the server, not the
 * client, the bottleneck on a small machine.
 */
export async function openRawMcpHttpSession(endpoint: string, agent: Agent, token: string): Promise<McpLoadSession> {
  const url = new URL(endpoint);
  const base: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${token}`,
  };
  const initialize = await send(
    url,
    agent,
    'POST',
    base,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'bench-load', version: '1.0.0' } },
    }),
  );
  const sessionId = initialize.headers['mcp-session-id'];
  if (initialize.status !== 200 || typeof sessionId !== 'string') {
    throw new Error(`initialize answered ${initialize.status} without a session id: ${initialize.text.slice(0, 300)}`);
  }
  const headers = { ...base, 'mcp-session-id': sessionId, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
  const initialized = await send(url, agent, 'POST', headers, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  if (initialized.status !== 202)
    throw new Error(`notifications/initialized answered ${initialized.status}: ${initialized.text.slice(0, 300)}`);
  let nextId = 1;
  return {
    call: async () => {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: nextId++,
        method: 'tools/call',
        params: { name: BENCH_TOOL_NAME, arguments: BENCH_ARGS },
      });
      const answer = await send(url, agent, 'POST', headers, body);
      if (answer.status !== 200 || !answer.text.includes(EXPECTED_TEXT) || answer.text.includes('"isError":true')) {
        throw new Error(`tools/call answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      }
    },
    close: async () => {
      await send(url, agent, 'DELETE', headers, null);
    },
  };
}
