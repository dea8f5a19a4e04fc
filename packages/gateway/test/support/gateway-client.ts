// An MCP client of a gateway served over Streamable HTTP, authenticating with a bearer token.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export async function connectClient(url: string, token: string | null): Promise<Client> {
  const client = new Client({ name: 'gateway-test-client', version: '1.0.0' });
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

export async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

/** The `code` of a tool error result (from `_meta['lat.milpa/error']`), or null for a success. */
export function errorCode(result: CallToolResult): string | null {
  if (result.isError !== true) return null;
  const details = result._meta?.['lat.milpa/error'] as { code?: string } | undefined;
  return details?.code ?? null;
}

export function textOf(result: CallToolResult): string {
  return result.content
    .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}
