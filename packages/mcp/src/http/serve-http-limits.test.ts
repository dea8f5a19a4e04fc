import { connect as connectTcp, type Socket } from 'node:net';
import { Type, defineTool } from '@milpa/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createNotesRegistry } from '../../test/support/notes-registry.js';
import { INITIALIZE, rawPost, type RawResponse } from '../../test/support/raw-http.js';
import type { HttpServeOptions } from './http-serve-options.js';
import type { McpHttpHandle } from './mcp-http-handle.js';
import { serveHttp } from './serve-http.js';
import { staticTokenAuthenticator } from './static-token-authenticator.js';

const authenticate = staticTokenAuthenticator({
  'alice-token': { principal: 'user:alice', scopes: ['notes:read'] },
  'bob-token': { principal: 'user:bob', scopes: ['notes:read'] },
});
const ALICE = { Authorization: 'Bearer alice-token' };
const BOB = { Authorization: 'Bearer bob-token' };

const handles: McpHttpHandle[] = [];
const clients: Client[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
});

/** A gate a test opens: the `hold` tool waits for it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

async function serve(options: HttpServeOptions = {}, held = gate()) {
  const notes = createNotesRegistry();
  let started: () => void = () => undefined;
  const running = new Promise<void>((resolve) => (started = resolve));
  notes.registry.register(
    defineTool({
      name: 'hold',
      description: 'Waits until the test lets it finish',
      input: Type.Object({}),
      handler: async () => {
        started();
        await held.promise;
        return { done: true };
      },
    }),
  );
  const handle = await serveHttp(notes.registry, { authenticate, ...options });
  handles.push(handle);
  return { handle, running, release: held.open };
}

async function connect(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'limits-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

function errorMessage(response: RawResponse): string {
  return (JSON.parse(response.body) as { error: { message: string } }).error.message;
}

/** Opens a TCP connection and resolves with everything the server sends until it closes. */
function openSocket(port: number, send = ''): { socket: Socket; received: Promise<string> } {
  const socket = connectTcp(port, '127.0.0.1');
  sockets.push(socket);
  let data = '';
  const received = new Promise<string>((resolve) => {
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    socket.on('close', () => resolve(data));
    socket.on('error', () => undefined);
  });
  if (send !== '') socket.write(send);
  return { socket, received };
}

function until(condition: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      if (condition()) {
        clearInterval(poll);
        resolve();
      }
    }, 10);
  });
}

describe('serveHttp limits', () => {
  describe('sessions', () => {
    it('refuses initialize with 503 beyond maxSessions, and accepts again once a session closes', async () => {
      const { handle } = await serve({ maxSessions: 2 });
      const first = await connect(handle.url, ALICE);
      await connect(handle.url, BOB);
      const refused = await rawPost(handle.url, INITIALIZE, BOB);
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('60');
      expect(errorMessage(refused)).toBe('Too many open sessions on this server: retry later');
      expect(handle.sessionCount).toBe(2);
      await (first.transport as StreamableHTTPClientTransport).terminateSession();
      expect((await rawPost(handle.url, INITIALIZE, BOB)).status).toBe(200);
      expect(handle.sessionCount).toBe(2);
    });

    it('refuses initialize with 429 beyond maxSessionsPerPrincipal, without affecting another principal', async () => {
      const { handle } = await serve({ maxSessionsPerPrincipal: 2 });
      await connect(handle.url, ALICE);
      await connect(handle.url, ALICE);
      const refused = await rawPost(handle.url, INITIALIZE, ALICE);
      expect(refused.status).toBe(429);
      expect(errorMessage(refused)).toBe('Too many open sessions for this principal: close one (DELETE) or let one expire');
      expect((await rawPost(handle.url, INITIALIZE, BOB)).status).toBe(200);
      expect(handle.sessionCount).toBe(3);
    });

    it('never overshoots a cap when many initialize requests arrive at once', async () => {
      const { handle } = await serve({ maxSessions: 5, maxInitializePerMinute: 1000 });
      const statuses = await Promise.all(
        Array.from({ length: 40 }, (_, index) => rawPost(handle.url, INITIALIZE, index % 2 === 0 ? ALICE : BOB)),
      );
      expect(statuses.filter((response) => response.status === 200)).toHaveLength(5);
      expect(statuses.filter((response) => response.status === 503)).toHaveLength(35);
      expect(handle.sessionCount).toBe(5);
    });

    it('limits initialize per client address per minute with 429 and Retry-After', async () => {
      const { handle } = await serve({ maxInitializePerMinute: 3 });
      const opened = await rawPost(handle.url, INITIALIZE, ALICE);
      expect(opened.status).toBe(200);
      for (let index = 0; index < 2; index += 1) expect((await rawPost(handle.url, INITIALIZE, ALICE)).status).toBe(200);
      const refused = await rawPost(handle.url, INITIALIZE, BOB);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(errorMessage(refused)).toBe(`Too many initialize requests from this address: retry in ${retryAfter} s`);
      expect(handle.sessionCount).toBe(3);
      // Requests on open sessions are not initialize requests: they are not limited.
      const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
      const session = { ...ALICE, 'mcp-session-id': opened.headers['mcp-session-id'] as string, 'mcp-protocol-version': '2025-11-25' };
      for (let index = 0; index < 5; index += 1) expect((await rawPost(handle.url, ping, session)).status).toBe(200);
    });

    it('rejects invalid limits', async () => {
      const notes = createNotesRegistry();
      for (const option of [
        'maxSessions',
        'maxSessionsPerPrincipal',
        'maxInitializePerMinute',
        'maxConnections',
        'headersTimeoutMs',
        'bodyTimeoutMs',
      ]) {
        for (const value of [0, -1, 1.5, Number.NaN]) {
          await expect(serveHttp(notes.registry, { authenticate, [option]: value })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
        }
      }
    });
  });

  describe('activity', () => {
    it('keeps a session whose request is still running past the idle timeout, delivers the result, then closes it when idle', async () => {
      const { handle, running, release } = await serve({ sessionIdleTimeoutMs: 200 });
      // Raw requests: no standalone stream is open, only the call itself.
      const opened = await rawPost(handle.url, INITIALIZE, ALICE);
      const headers = { ...ALICE, 'mcp-session-id': opened.headers['mcp-session-id'] as string, 'mcp-protocol-version': '2025-11-25' };
      await rawPost(handle.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
      const call = rawPost(handle.url, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'hold', arguments: {} } }, headers);
      await running;
      // Several idle periods (and sweeps) pass while the call runs.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(handle.sessionCount).toBe(1);
      release();
      const response = await call;
      expect(response.status).toBe(200);
      expect(response.body).toContain('"structuredContent":{"done":true}');
      await until(() => handle.sessionCount === 0);
    });

    it('keeps a session with an open standalone stream past the idle timeout', async () => {
      const { handle } = await serve({ sessionIdleTimeoutMs: 200 });
      const opened = await rawPost(handle.url, INITIALIZE, ALICE);
      const sessionId = opened.headers['mcp-session-id'] as string;
      const headers = { ...ALICE, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
      await rawPost(handle.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
      const stream = openSocket(
        handle.port,
        `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${handle.port}\r\nAccept: text/event-stream\r\nAuthorization: ${ALICE.Authorization}\r\n` +
          `mcp-session-id: ${sessionId}\r\nmcp-protocol-version: 2025-11-25\r\n\r\n`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(handle.sessionCount).toBe(1);
      stream.socket.destroy();
      await until(() => handle.sessionCount === 0);
    });
  });

  describe('connections and read timeouts', () => {
    it('answers 503 with a JSON-RPC error to a connection beyond maxConnections and closes it', async () => {
      const { handle } = await serve({ maxConnections: 2 });
      openSocket(handle.port);
      openSocket(handle.port);
      await until(() => handle.connectionCount === 2);
      const third = openSocket(handle.port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n`);
      const answer = await third.received;
      expect(answer).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
      expect(answer).toContain('"message":"Too many open connections: retry later"');
      expect(handle.connectionCount).toBe(2);
      for (const socket of sockets) socket.destroy();
      await until(() => handle.connectionCount === 0);
      expect((await rawPost(handle.url, INITIALIZE, ALICE)).status).toBe(200);
    });

    it('answers 408 and closes a connection whose headers do not arrive within headersTimeoutMs', async () => {
      const { handle } = await serve({ headersTimeoutMs: 300 });
      const started = Date.now();
      const slow = openSocket(handle.port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
      const answer = await slow.received;
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(Date.now() - started).toBeLessThan(20_000);
      await until(() => handle.connectionCount === 0);
    });

    it('answers 408 with a JSON-RPC error and closes a connection whose body does not arrive within bodyTimeoutMs', async () => {
      const { handle } = await serve({ bodyTimeoutMs: 300 });
      const body = JSON.stringify(INITIALIZE);
      const slow = openSocket(
        handle.port,
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${handle.port}\r\nContent-Type: application/json\r\n` +
          'Accept: application/json, text/event-stream\r\n' +
          `Authorization: ${ALICE.Authorization}\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      );
      const answer = await slow.received;
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('"message":"Request body not received within 300 ms"');
      expect(handle.sessionCount).toBe(0);
      await until(() => handle.connectionCount === 0);
    });
  });
});
