import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallRow } from '../../harness/call-row.js';
import { assertCheck } from '../../harness/assert-check.js';
import { BENCH_ARGS, BENCH_RESULT, BENCH_TOOL_DESCRIPTION, BENCH_TOOL_NAME, INVALID_ARGS, benchZodSchema } from '../../fixtures/bench-tool.js';

function textOf(result: unknown): string | undefined {
  const content = (result as { content?: readonly { type: string; text?: string }[] }).content;
  return content?.[0]?.text;
}

/**
 * Row 7: `@modelcontextprotocol/sdk` — `client.callTool()` round trip over the SDK's linked
 * in-memory transports to an `McpServer` serving the same tool (zod strict object input).
 */
export async function createMcpSdkRow(): Promise<CallRow> {
  const server = new McpServer({ name: 'bench-server', version: '1.0.0' });
  server.registerTool(BENCH_TOOL_NAME, { description: BENCH_TOOL_DESCRIPTION, inputSchema: benchZodSchema() }, () => ({
    content: [{ type: 'text', text: BENCH_RESULT }],
  }));
  const client = new Client({ name: 'bench-client', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  const params = { name: BENCH_TOOL_NAME, arguments: { ...BENCH_ARGS } };
  return {
    id: '7',
    label: 'bare SDK McpServer, client.callTool (in-memory)',
    group: 'mcp',
    check: async () => {
      const result = await client.callTool(params);
      assertCheck(result.isError !== true && textOf(result) === BENCH_RESULT, `unexpected result ${JSON.stringify(result)}`);
      const refused = await client.callTool({ name: BENCH_TOOL_NAME, arguments: { ...INVALID_ARGS } });
      assertCheck(refused.isError === true, `invalid arguments gave ${JSON.stringify(refused)}`);
    },
    batch: async (n) => {
      for (let index = 0; index < n; index++) await client.callTool(params);
    },
  };
}
