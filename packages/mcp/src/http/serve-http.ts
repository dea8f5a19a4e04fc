import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolRegistry } from '@milpa/tool-runtime';
import type { HttpServeOptions } from './http-serve-options.js';
import type { McpHttpHandle } from './mcp-http-handle.js';
import { McpHttpEndpoint } from './mcp-http-endpoint.js';

/**
 * Serves `registry` over MCP Streamable HTTP (stateful sessions, SSE streams) on a Node HTTP
 * server. Every request is authenticated by `options.authenticate`; its identity becomes the
 * call's `ToolContext.mcp(requestId, principal, scopes)`, and a request without credentials is
 * anonymous (denied by the `mcp` channel policy). Bound to loopback by default, with Host/Origin
 * checks against DNS rebinding.
 *
 * @example
 * const http = await serveHttp(registry, { port: 3000, authenticate: bearerAuthenticator(verifier) });
 * console.error(`MCP endpoint: ${http.url}`); // http://127.0.0.1:3000/mcp
 * // later: await http.close();
 */
export async function serveHttp(registry: ToolRegistry, options: HttpServeOptions = {}): Promise<McpHttpHandle> {
  const host = options.host ?? '127.0.0.1';
  const endpoint = new McpHttpEndpoint(registry, options);
  const server = createServer((request, response) => void endpoint.handle(request, response));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await endpoint.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost}:${port}${options.path ?? '/mcp'}`,
    port,
    get sessionCount() {
      return endpoint.sessionCount;
    },
    close() {
      closing ??= (async () => {
        await endpoint.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Open SSE streams would otherwise keep close() waiting for the client to hang up.
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
