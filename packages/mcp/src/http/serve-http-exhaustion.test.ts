import { connect as connectTcp, type Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Type, defineTool } from '@milpa/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createNotesRegistry } from '../../test/support/notes-registry.js';
import { INITIALIZE, rawPost, rawRequest } from '../../test/support/raw-http.js';
import type { HttpServeOptions } from './http-serve-options.js';
import type { McpHttpHandle } from './mcp-http-handle.js';
import { serveHttp } from './serve-http.js';
import { staticTokenAuthenticator } from './static-token-authenticator.js';

// Load tests over loopback: each is bounded in count and time, and each fails on a server without
// the limit it checks.

const authenticate = staticTokenAuthenticator({
  'alice-token': { principal: 'user:alice', scopes: ['notes:read'] },
});
const ALICE = { Authorization: 'Bearer alice-token' };

const handles: McpHttpHandle[] = [];
const clients: Client[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.allSettled(clients.splice(0).map((client) => client.close()));
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
});

async function serve(options: HttpServeOptions = {}): Promise<McpHttpHandle> {
  const handle = await serveHttp(createNotesRegistry().registry, { authenticate, ...options });
  handles.push(handle);
  return handle;
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'exhaustion-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: ALICE } }));
  clients.push(client);
  return client;
}

/** Opens an idle TCP connection from `localAddress`; resolves once it is connected (or refused). */
function idleSocket(port: number, localAddress = '127.0.0.1'): Promise<{ socket: Socket; closed: Promise<string> }> {
  return new Promise((resolve) => {
    const socket = connectTcp({ port, host: '127.0.0.1', localAddress });
    sockets.push(socket);
    let data = '';
    const closed = new Promise<string>((done) => {
      socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
      socket.on('close', () => done(data));
    });
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed }));
  });
}

/** Sends raw HTTP on a fresh socket and resolves with everything received until the server closes it. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connectTcp(port, '127.0.0.1');
    sockets.push(socket);
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    socket.on('close', () => resolve(data));
    socket.on('error', () => undefined);
    socket.write(text);
  });
}

describe('serveHttp under exhaustion attempts', () => {
  it('keeps serving a client from another address while one address holds idle connections', async () => {
    const handle = await serve({ maxConnections: 100, maxConnectionsPerAddress: 20 });
    const flood = await Promise.all(Array.from({ length: 60 }, () => idleSocket(handle.port)));
    // Beyond its own 20 the flooding address is answered 429 and closed at once.
    const refused = await Promise.all(flood.slice(20).map(({ closed }) => closed));
    for (const text of refused) expect(text).toMatch(/^HTTP\/1\.1 429 .*Connection: close/s);
    expect(handle.connectionCount).toBe(20);
    // Another loopback address still gets in and is served.
    const other = await idleSocket(handle.port, '127.0.0.2');
    other.socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${handle.port}\r\nAuthorization: Bearer alice-token\r\n` +
        `Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\nConnection: close\r\n` +
        `Content-Length: ${Buffer.byteLength(JSON.stringify(INITIALIZE))}\r\n\r\n${JSON.stringify(INITIALIZE)}`,
    );
    expect(await other.closed).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('closes the connection of a request answered 401, 400 or 404 instead of keeping it alive', async () => {
    const handle = await serve();
    const host = `Host: 127.0.0.1:${handle.port}\r\n`;
    const unauthorized = await rawExchange(handle.port, `POST /mcp HTTP/1.1\r\n${host}Content-Length: 2\r\n\r\n{}`);
    expect(unauthorized).toMatch(/^HTTP\/1\.1 401 .*Connection: close/is);
    const missing = await rawExchange(handle.port, `GET /elsewhere HTTP/1.1\r\n${host}Authorization: Bearer alice-token\r\n\r\n`);
    expect(missing).toMatch(/^HTTP\/1\.1 404 .*Connection: close/is);
  });

  it('closes a connection that sends nothing within the headers timeout', async () => {
    const handle = await serve({ headersTimeoutMs: 300 });
    const { closed } = await idleSocket(handle.port);
    const started = Date.now();
    await closed;
    expect(Date.now() - started).toBeLessThan(5000);
    for (let wait = 0; wait < 100 && handle.connectionCount > 0; wait += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handle.connectionCount).toBe(0);
  });

  it('refuses a two-million-level body with -32600 before parsing it, and answers a concurrent ping meanwhile', async () => {
    const handle = await serve();
    const client = await connect(handle.url);
    const deep = `${'['.repeat(2_000_000)}${']'.repeat(2_000_000)}`;
    const bodies = Array.from({ length: 3 }, () => rawRequest(handle.url, 'POST', { ...ALICE, 'Content-Type': 'application/json' }, deep));
    const pings: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      const started = performance.now();
      await client.ping();
      pings.push(performance.now() - started);
    }
    for (const response of await Promise.all(bodies)) {
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: -32600 }, id: null });
    }
    // Parsing such a body took seconds; the pre-scan takes milliseconds. The bound is loose for a loaded machine.
    expect(Math.max(...pings)).toBeLessThan(1500);
  });

  it('answers an empty batch and invalid ids with -32600 Invalid Request', async () => {
    const handle = await serve();
    const empty = await rawPost(handle.url, [], ALICE);
    expect(empty.status).toBe(400);
    expect(JSON.parse(empty.body)).toMatchObject({ error: { code: -32600 }, id: null });
    for (const id of [{}, true, [1]]) {
      const invalid = await rawPost(handle.url, { jsonrpc: '2.0', method: 'ping', id }, ALICE);
      expect(invalid.status).toBe(400);
      expect(JSON.parse(invalid.body)).toMatchObject({ error: { code: -32600 } });
    }
    const notJson = await rawRequest(handle.url, 'POST', { ...ALICE, 'Content-Type': 'application/json' }, '{nope');
    expect(JSON.parse(notJson.body)).toMatchObject({ error: { code: -32700 } });
  });

  it('keeps the replay buffers of all sessions within one server-wide budget', async () => {
    const { registry } = createNotesRegistry();
    registry.register(
      defineTool({ name: 'bulky', description: 'A 20 kB answer', input: Type.Object({}), handler: () => ({ text: 'x'.repeat(20_000) }) }),
    );
    const handle = await serveHttp(registry, { authenticate, resumableStreams: { maxBytesTotal: 100_000 } });
    handles.push(handle);
    for (let session = 0; session < 12; session += 1) {
      const client = await connect(handle.url);
      await client.callTool({ name: 'bulky', arguments: {} });
      await client.callTool({ name: 'bulky', arguments: {} });
    }
    // 24 answers of about 20 kB were streamed; each session alone may keep 1 MiB, the server keeps 100 kB.
    expect(handle.sessionCount).toBe(12);
    expect(handle.replayBytes).toBeGreaterThan(0);
    expect(handle.replayBytes).toBeLessThanOrEqual(100_000);
  });

  describe('the protected-resource metadata document', () => {
    const metadataPath = '/.well-known/oauth-protected-resource/mcp';

    it('never echoes a Host header the endpoint refuses, and is not cacheable when built from the Host', async () => {
      const handle = await serve();
      const bound = `http://127.0.0.1:${handle.port}`;
      const hostile = await rawRequest(`${bound}${metadataPath}`, 'GET', { Host: 'evil.example' });
      expect(JSON.parse(hostile.body)).toMatchObject({ resource: `${bound}/mcp` });
      expect(hostile.headers['cache-control']).toBe('no-store');
      const challenge = (await rawPost(handle.url, INITIALIZE, { Host: 'evil.example' })).headers['www-authenticate'];
      expect(challenge ?? '').not.toContain('evil.example');
      // A Host the endpoint accepts is still used, for that response only.
      const accepted = await rawRequest(`${bound}${metadataPath}`, 'GET', { Host: `localhost:${handle.port}` });
      expect(JSON.parse(accepted.body)).toMatchObject({ resource: `http://localhost:${handle.port}/mcp` });
      expect(accepted.headers['vary']).toBe('Host');
    });

    it('is cacheable when its resource is configured', async () => {
      const handle = await serve({ protectedResource: { resource: 'https://mcp.example.com/mcp' } });
      const response = await rawRequest(`http://127.0.0.1:${handle.port}${metadataPath}`, 'GET', { Host: 'evil.example' });
      expect(JSON.parse(response.body)).toMatchObject({ resource: 'https://mcp.example.com/mcp' });
      expect(response.headers['cache-control']).toBe('max-age=3600');
    });
  });

  describe('behind a reverse proxy', () => {
    const forwarded = (address: string) => ({ ...ALICE, 'X-Forwarded-For': `${address}, 10.0.0.1` });

    it('without trustProxy, X-Forwarded-For is ignored: one address, one initialize budget', async () => {
      const handle = await serve({ maxInitializePerMinute: 2, maxInitializePerMinutePerPrincipal: 100 });
      const statuses: number[] = [];
      for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
        statuses.push((await rawPost(handle.url, INITIALIZE, { ...ALICE, 'X-Forwarded-For': client })).status);
      }
      expect(statuses).toEqual([200, 200, 429]);
    });

    it('with trustProxy, each forwarded client has its own budget, and one principal is limited across addresses', async () => {
      const handle = await serve({ trustProxy: 2, maxInitializePerMinute: 2, maxInitializePerMinutePerPrincipal: 4 });
      const statuses: number[] = [];
      for (const client of ['203.0.113.1', '203.0.113.1', '203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4']) {
        statuses.push((await rawPost(handle.url, INITIALIZE, forwarded(client))).status);
      }
      // The third from .1 is over its address budget; the sixth is over alice's budget of four.
      expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
    });
  });
});
