import { ToolContext, type GovernedToolRegistry } from '@milpa/core';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from '../server/create-mcp-server.js';
import { enforceStdioProtocol } from './enforce-stdio-protocol.js';
import type { McpStdioHandle } from './mcp-stdio-handle.js';
import type { StdioServeOptions } from './stdio-serve-options.js';

/**
 * Serves `registry` over MCP on stdin/stdout, for a client that launches this process (Claude
 * Desktop, an IDE, an agent runtime). The process boundary is the trust boundary: every call runs
 * as `ToolContext.stdio(requestId)` — principal `stdio`, scopes `['*']`, channel `mcp`. When stdin
 * ends the connection closes and running handlers are aborted. A line that is not JSON is answered
 * `-32700`, a batch or malformed message `-32600`, and a request before `initialize` is refused.
 * Write diagnostics to stderr only.
 *
 * @example
 * // server.ts, launched by the client as `node server.js`
 * await serveStdio(registry, { name: 'notes' });
 */
export async function serveStdio(registry: GovernedToolRegistry, options: StdioServeOptions = {}): Promise<McpStdioHandle> {
  const principal = options.principal ?? 'stdio';
  const scopes = options.scopes ?? ['*'];
  const server = createMcpServer(registry, {
    ...options,
    context: options.context ?? ((call) => ToolContext.stdio(call.requestId, principal, scopes)),
  });
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  await server.connect(transport);
  enforceStdioProtocol(server, transport);
  const close = (): Promise<void> => server.close();
  // The SDK transport does not notice a client that hung up; without this, handlers would run on.
  const onEnd = (): void => void close();
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  void closed.then(() => {
    stdin.off('end', onEnd);
    stdin.off('close', onEnd);
  });
  return { server, closed, close };
}
