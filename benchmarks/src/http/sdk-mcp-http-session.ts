import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BENCH_ARGS, BENCH_RESULT, BENCH_TOOL_NAME } from '../fixtures/bench-tool.js';
import type { McpLoadSession } from './mcp-load-session.js';

/** The SDK client's result text, or undefined. */
export function textOf(result: unknown): string | undefined {
  const content = (result as { content?: readonly { type: string; text?: string }[] }).content;
  return content?.[0]?.text;
}

/** A connected SDK `Client` over `StreamableHTTPClientTransport`, sending the bearer token on every request. */
export async function connectSdkClient(endpoint: string, token: string): Promise<Client> {
  const client = new Client({ name: 'bench-client', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

/** An MCP session through the SDK's own client (what an agent runs; heavier than the raw session). */
export async function openSdkMcpHttpSession(endpoint: string, token: string): Promise<McpLoadSession> {
  const client = await connectSdkClient(endpoint, token);
  const params = { name: BENCH_TOOL_NAME, arguments: { ...BENCH_ARGS } };
  return {
    call: async () => {
      const result = await client.callTool(params);
      if (result.isError === true || textOf(result) !== BENCH_RESULT) throw new Error(`unexpected result ${JSON.stringify(result)}`);
    },
    close: () => client.close(),
  };
}
