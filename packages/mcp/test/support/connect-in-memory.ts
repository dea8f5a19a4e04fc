import type { ToolRegistry } from '@milpa/tool-runtime';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../../src/server/create-mcp-server.js';
import type { McpServerOptions } from '../../src/server/mcp-server-options.js';

/** An SDK `Client` connected in memory to `createMcpServer(registry, options)`. */
export async function connectInMemory(
  registry: ToolRegistry,
  options: McpServerOptions = {},
  capabilities: ClientCapabilities = {},
): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = createMcpServer(registry, options);
  const client = new Client({ name: 'milpa-test-client', version: '1.0.0' }, { capabilities });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
