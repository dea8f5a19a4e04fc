import { ToolContext } from '@milpa/core';
import { createMcpServer } from '@milpa/mcp';
import type { ToolRegistry } from '@milpa/tool-runtime';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallRow } from '../harness/call-row.js';
import { assertCheck } from '../harness/assert-check.js';
import type { DiscardStream } from '../fixtures/discard-stream.js';
import { BENCH_ARGS, BENCH_RESULT, BENCH_SCOPE, BENCH_TOOL_NAME, INVALID_ARGS } from '../fixtures/bench-tool.js';

/** What the Milpa-over-MCP row serves. */
export interface MilpaMcpRowOptions {
  /** Table id. */
  readonly id: string;
  /** Table label. */
  readonly label: string;
  /** The registry `createMcpServer` serves (wired like row 3). */
  readonly registry: ToolRegistry;
  /** The registry logger's stream, so the check proves each call writes its audit line. */
  readonly stream?: DiscardStream;
}

function textOf(result: unknown): string | undefined {
  const content = (result as { content?: readonly { type: string; text?: string }[] }).content;
  return content?.[0]?.text;
}

/**
 * Milpa over MCP: `client.callTool()` round trip over the SDK's linked in-memory transports to
 * `@milpa/mcp`'s `createMcpServer(registry)`, the same tool and transport as the bare SDK row. Every
 * call builds its `ToolContext` from the request (a fresh request id, the caller holding the tool's
 * scope), as a server does, and runs the registry's whole pipeline.
 */
export async function createMilpaMcpRow(options: MilpaMcpRowOptions): Promise<CallRow> {
  const server = createMcpServer(options.registry, {
    name: 'bench-server',
    version: '1.0.0',
    context: ({ requestId }) => ToolContext.mcp(requestId, 'user:42', [BENCH_SCOPE]),
  });
  const client = new Client({ name: 'bench-client', version: '1.0.0' });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  const params = { name: BENCH_TOOL_NAME, arguments: { ...BENCH_ARGS } };
  return {
    id: options.id,
    label: options.label,
    group: 'mcp',
    baseline: options.stream === undefined ? '4' : '2',
    check: async () => {
      const linesBefore = options.stream?.lines ?? 0;
      const result = await client.callTool(params);
      assertCheck(result.isError !== true && textOf(result) === BENCH_RESULT, `unexpected result ${JSON.stringify(result)}`);
      if (options.stream !== undefined) assertCheck(options.stream.lines === linesBefore + 1, 'the call did not write one audit line');
      const refused = await client.callTool({ name: BENCH_TOOL_NAME, arguments: { ...INVALID_ARGS } });
      assertCheck(refused.isError === true, `invalid arguments gave ${JSON.stringify(refused)}`);
    },
    batch: async (n) => {
      for (let index = 0; index < n; index++) await client.callTool(params);
    },
  };
}
