import { MilpaError, ToolContext, type GovernedToolRegistry } from '@milpa/core';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from '../server/create-mcp-server.js';
import { DEFAULT_MAX_JSON_DEPTH } from '../json/json-depth.js';
import { INVALID_REQUEST, enforceStdioProtocol } from './enforce-stdio-protocol.js';
import { StdioLineGuard } from './stdio-line-guard.js';
import type { McpStdioHandle } from './mcp-stdio-handle.js';
import type { StdioServeOptions } from './stdio-serve-options.js';

/**
 * Serves `registry` over MCP on stdin/stdout, for a client that launches this process (Claude
 * Desktop, an IDE, an agent runtime). The process boundary is the trust boundary: every call runs
 * as `ToolContext.stdio(requestId)` — principal `stdio`, scopes `['*']`, channel `mcp`. When stdin
 * ends the connection closes and running handlers are aborted. A line that is not JSON is answered
 * `-32700`; a batch, a malformed message, a line over `maxLineBytes` (default 4 MiB) or nested
 * deeper than `maxJsonDepth` (default 64; checked before parsing) `-32600`; a request before
 * `initialize`, and a second `initialize`, are refused.
 * Write diagnostics to stderr only.
 *
 * @example
 * // server.ts, launched by the client as `node server.js`
 * await serveStdio(registry, { name: 'notes' });
 */
const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) {
    throw new MilpaError(`serveStdio option ${name} must be a positive integer, got ${String(value)}.`, { code: 'INVALID_ARGUMENT' });
  }
  return value;
}

export async function serveStdio(registry: GovernedToolRegistry, options: StdioServeOptions = {}): Promise<McpStdioHandle> {
  const principal = options.principal ?? 'stdio';
  const scopes = options.scopes ?? ['*'];
  const server = createMcpServer(registry, {
    ...options,
    context: options.context ?? ((call) => ToolContext.stdio(call.requestId, principal, scopes)),
  });
  const stdin = options.stdin ?? process.stdin;
  const maxLineBytes = positiveInteger('maxLineBytes', options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  const maxDepth = positiveInteger('maxJsonDepth', options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH);
  let transport: StdioServerTransport | null = null;
  const guard = new StdioLineGuard(maxLineBytes, maxDepth, ({ message }) => {
    // Best effort, as for every refusal: a client that cannot be written to has gone.
    transport?.send({ jsonrpc: '2.0', id: null, error: { code: INVALID_REQUEST, message } } as never).catch(() => undefined);
  });
  stdin.pipe(guard);
  transport = new StdioServerTransport(guard, options.stdout ?? process.stdout);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  await server.connect(transport);
  enforceStdioProtocol(server, transport);
  void closed.then(() => stdin.unpipe(guard));
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
