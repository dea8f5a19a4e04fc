import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { MilpaError, type GovernedToolRegistry } from '@milpa/core';
import type { HttpServeOptions } from './http-serve-options.js';
import type { McpHttpHandle } from './mcp-http-handle.js';
import { McpHttpEndpoint } from './mcp-http-endpoint.js';
import { clientAddressKey } from './client-address-key.js';
import { trustedHops } from './client-address.js';

const DEFAULT_MAX_CONNECTIONS = 1000;
const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 64;
const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5000;
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
const DEFAULT_BODY_TIMEOUT_MS = 10_000;

const TOO_MANY_CONNECTIONS_BODY = JSON.stringify({
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Too many open connections: retry later' },
  id: null,
});
const TOO_MANY_CONNECTIONS =
  'HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 5\r\nConnection: close\r\n' +
  `Content-Length: ${Buffer.byteLength(TOO_MANY_CONNECTIONS_BODY)}\r\n\r\n${TOO_MANY_CONNECTIONS_BODY}`;
const TOO_MANY_FROM_ADDRESS_BODY = JSON.stringify({
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Too many open connections from this address: retry later' },
  id: null,
});
const TOO_MANY_FROM_ADDRESS =
  'HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 5\r\nConnection: close\r\n' +
  `Content-Length: ${Buffer.byteLength(TOO_MANY_FROM_ADDRESS_BODY)}\r\n\r\n${TOO_MANY_FROM_ADDRESS_BODY}`;

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) {
    throw new MilpaError(`serveHttp option ${name} must be a positive integer, got ${String(value)}.`, { code: 'INVALID_ARGUMENT' });
  }
  return value;
}

/**
 * Serves `registry` over MCP Streamable HTTP (stateful sessions, resumable SSE streams) on a Node
 * HTTP server. Every request is authenticated by `options.authenticate`: a request without
 * credentials gets `401` with a `WWW-Authenticate: Bearer` challenge pointing at the
 * protected-resource metadata (served at `/.well-known/oauth-protected-resource`), unless the host
 * opts in with `allowAnonymous: true`. The identity becomes each call's context (principal, scopes),
 * and `tools/list` offers exactly the tools that identity may call. Bound to loopback by default;
 * the Origin header is checked on every bind address, the Host header on loopback or against
 * `allowedHosts`; sessions, connections (in all and per client address, IPv6 per /64), `initialize`
 * rate, nesting depth, header and body read times are bounded, and a refused client's connection is
 * closed.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for an invalid option, or with neither `authenticate` nor
 * `allowAnonymous: true`.
 * @example
 * const http = await serveHttp(registry, { port: 3000, authenticate: bearerAuthenticator(verifier) });
 * console.error(`MCP endpoint: ${http.url}`); // http://127.0.0.1:3000/mcp
 * // later: await http.close();
 */
export async function serveHttp(registry: GovernedToolRegistry, options: HttpServeOptions = {}): Promise<McpHttpHandle> {
  const host = options.host ?? '127.0.0.1';
  const maxConnections = positiveInteger('maxConnections', options.maxConnections ?? DEFAULT_MAX_CONNECTIONS);
  const maxPerAddress = positiveInteger(
    'maxConnectionsPerAddress',
    options.maxConnectionsPerAddress ??
      (trustedHops(options.trustProxy) > 0 ? maxConnections : Math.min(DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, maxConnections)),
  );
  const keepAliveTimeout = positiveInteger('keepAliveTimeoutMs', options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS);
  const headersTimeout = positiveInteger('headersTimeoutMs', options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS);
  const bodyTimeout = positiveInteger('bodyTimeoutMs', options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS);
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  let boundPort = options.port ?? 0;
  const endpoint = new McpHttpEndpoint(registry, options, () => `${urlHost}:${boundPort}`);
  const refused = new WeakSet<Socket>();
  const server = createServer(
    {
      headersTimeout,
      // The whole request (headers and body); the endpoint answers a slow body itself, this is the backstop.
      requestTimeout: headersTimeout + bodyTimeout + 1000,
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
      keepAliveTimeout,
    },
    (request, response) => {
      if (refused.has(request.socket)) {
        request.socket.destroy();
        return;
      }
      void endpoint.handle(request, response);
    },
  );
  let open = 0;
  const openByAddress = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    if (open >= maxConnections) {
      refused.add(socket);
      socket.end(TOO_MANY_CONNECTIONS);
      return;
    }
    const address = clientAddressKey(socket.remoteAddress);
    const fromAddress = openByAddress.get(address) ?? 0;
    if (fromAddress >= maxPerAddress) {
      refused.add(socket);
      socket.end(TOO_MANY_FROM_ADDRESS);
      return;
    }
    open += 1;
    openByAddress.set(address, fromAddress + 1);
    socket.once('close', () => {
      open -= 1;
      const left = (openByAddress.get(address) ?? 1) - 1;
      if (left === 0) openByAddress.delete(address);
      else openByAddress.set(address, left);
    });
  });
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
  boundPort = port;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost}:${port}${options.path ?? '/mcp'}`,
    port,
    get sessionCount() {
      return endpoint.sessionCount;
    },
    get connectionCount() {
      return open;
    },
    get replayBytes() {
      return endpoint.replayBytes;
    },
    sendToolListChanged() {
      return endpoint.sendToolListChanged();
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
