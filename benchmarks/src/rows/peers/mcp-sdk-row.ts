import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Logger as PinoLogger } from 'pino';
import type { CallRow } from '../../harness/call-row.js';
import { assertCheck } from '../../harness/assert-check.js';
import type { DiscardStream } from '../../fixtures/discard-stream.js';
import {
  BENCH_ARGS,
  BENCH_RESULT,
  BENCH_TOOL_DESCRIPTION,
  BENCH_TOOL_NAME,
  INVALID_ARGS,
  benchZodSchema,
} from '../../fixtures/bench-tool.js';

/** Which bare SDK row to build: the plain one, or the one whose handler writes a pino line. */
export interface McpSdkRowOptions {
  /** Table id. */
  readonly id: string;
  /** Table label. */
  readonly label: string;
  /** The production logger and its stream (one info line per call from the handler), or null for none. */
  readonly production: { readonly logger: PinoLogger; readonly stream: DiscardStream } | null;
}

function textOf(result: unknown): string | undefined {
  const content = (result as { content?: readonly { type: string; text?: string }[] }).content;
  return content?.[0]?.text;
}

/**
 * `@modelcontextprotocol/sdk` — `client.callTool()` round trip over the SDK's linked in-memory
 * transports to a bare `McpServer` serving the same tool (zod strict object input). With a logger,
 * the handler writes the line row 2 writes: `{ tool, principal, channel, took_ms, args }` at info.
 */
export async function createMcpSdkRow(options: McpSdkRowOptions): Promise<CallRow> {
  const logger = options.production?.logger ?? null;
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
  const client = new Client({ name: 'bench-client', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  const params = { name: BENCH_TOOL_NAME, arguments: { ...BENCH_ARGS } };
  return {
    id: options.id,
    label: options.label,
    group: 'mcp',
    ...(options.production === null ? {} : { baseline: '2' }),
    check: async () => {
      const linesBefore = options.production?.stream.lines ?? 0;
      const result = await client.callTool(params);
      assertCheck(result.isError !== true && textOf(result) === BENCH_RESULT, `unexpected result ${JSON.stringify(result)}`);
      if (options.production !== null)
        assertCheck(options.production.stream.lines === linesBefore + 1, 'the call did not write one log line');
      const refused = await client.callTool({ name: BENCH_TOOL_NAME, arguments: { ...INVALID_ARGS } });
      assertCheck(refused.isError === true, `invalid arguments gave ${JSON.stringify(refused)}`);
    },
    batch: async (n) => {
      for (let index = 0; index < n; index++) await client.callTool(params);
    },
  };
}
