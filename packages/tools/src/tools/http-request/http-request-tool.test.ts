import { ToolContext, type ToolResult, isMutatingCall, mutabilityOf, unsupportedCaller, type ToolDefinition } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { httpRequestTool, type HttpRequestArgs, type HttpRequestToolOptions, type HttpResponseData } from './http-request-tool.js';
import type { HostLookup } from './resolve-request-target.js';

interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

interface TestServer {
  readonly port: number;
  readonly origin: string;
  readonly requests: ReceivedRequest[];
  connections: number;
  handle: (request: IncomingMessage, response: ServerResponse, body: string) => void;
  close(): Promise<void>;
}

async function startServer(host = '127.0.0.1'): Promise<TestServer> {
  const server = createServer();
  const state: TestServer = {
    port: 0,
    origin: '',
    requests: [],
    connections: 0,
    handle: (_request, response) => response.end('ok'),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', () => {
    state.connections += 1;
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      state.requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      state.handle(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, { port, origin: `http://${host}:${port}` });
}

/** A lookup stub that maps names to addresses and records every call. */
function stubLookup(table: Record<string, readonly string[]>): HostLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string): Promise<readonly LookupAddress[]> => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls });
}

function invoke(
  tool: ToolDefinition<HttpRequestArgs>,
  args: Record<string, unknown>,
  signal = new AbortController().signal,
): Promise<ToolResult> {
  return Promise.resolve(
    tool.handler(args as unknown as HttpRequestArgs, { context: ToolContext.cli(), signal, caller: unsupportedCaller }),
  ) as Promise<ToolResult>;
}

function dataOf(result: ToolResult): HttpResponseData {
  expect(result.error).toBeNull();
  expect(result.success).toBe(true);
  return result.data as HttpResponseData;
}

let allowed: TestServer;
let second: TestServer;
let forbidden: TestServer;
let lookup: ReturnType<typeof stubLookup>;

function makeTool(options: HttpRequestToolOptions = {}): ToolDefinition<HttpRequestArgs> {
  return httpRequestTool({ allowedAddresses: [`127.0.0.1:${allowed.port}`, `127.0.0.1:${second.port}`], lookup, ...options });
}

beforeAll(async () => {
  [allowed, second, forbidden] = await Promise.all([startServer(), startServer(), startServer()]);
});

afterAll(async () => {
  await Promise.all([allowed.close(), second.close(), forbidden.close()]);
});

afterEach(() => {
  for (const server of [allowed, second, forbidden]) {
    server.requests.length = 0;
    server.connections = 0;
    server.handle = (_request, response) => response.end('ok');
  }
});

function resetLookup(table: Record<string, readonly string[]> = {}): void {
  lookup = stubLookup({ 'evil.test': ['127.0.0.1'], 'api.test': ['127.0.0.1'], ...table });
}
resetLookup();

describe('httpRequestTool', () => {
  describe('definition', () => {
    it('declares the http:request scope, mutability per call (GET reads, POST mutates), and routing hints by default', () => {
      const tool = httpRequestTool();
      expect(tool.name).toBe('http_request');
      expect(tool.scopes).toEqual(['http:request']);
      expect(mutabilityOf(tool)).toBe('depends_on_arguments');
      expect(isMutatingCall(tool, { url: 'https://example.com/' })).toBe(false);
      expect(isMutatingCall(tool, { method: 'GET', url: 'https://example.com/' })).toBe(false);
      expect(isMutatingCall(tool, { method: 'POST', url: 'https://example.com/' })).toBe(true);
      expect(isMutatingCall(tool, { method: 'get', url: 'https://example.com/' })).toBe(true);
      expect(tool.routing?.domains).toContain('http');
    });

    it.each(['127.0.0.0/8:80', '127.0.0.1', '*:80', 'localhost:80', '127.0.0.1:0', '127.0.0.1:70000', '::1:80', '[127.0.0.1]:80'])(
      'throws INVALID_ARGUMENT when an allowedAddresses entry is %s',
      (entry) => {
        expect(() => httpRequestTool({ allowedAddresses: [entry] })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
      },
    );
  });

  describe('GET and POST', () => {
    it('returns the status, a safe header subset and the body of a GET to an allow-listed address', async () => {
      resetLookup();
      allowed.handle = (_request, response) => {
        response.setHeader('content-type', 'text/plain; charset=utf-8');
        response.setHeader('set-cookie', 'session=secret');
        response.setHeader('x-internal', 'hidden');
        response.end('hello');
      };
      const data = dataOf(await invoke(makeTool(), { url: `${allowed.origin}/greeting?x=1#frag` }));
      expect(data).toMatchObject({
        status: 200,
        body: 'hello',
        truncated: false,
        redirects: [],
        url: `${allowed.origin}/greeting?x=1`,
        body_omitted: null,
      });
      expect(data.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(data.headers).not.toHaveProperty('set-cookie');
      expect(data.headers).not.toHaveProperty('x-internal');
      const [received] = allowed.requests;
      expect(received).toMatchObject({ method: 'GET', url: '/greeting?x=1' });
      expect(received?.headers).toMatchObject({
        host: `127.0.0.1:${allowed.port}`,
        'accept-encoding': 'identity',
        'user-agent': 'milpa-http-request',
      });
    });

    it('sends a POST body with its content type and length', async () => {
      allowed.handle = (request, response, body) => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ received: body, type: request.headers['content-type'], length: request.headers['content-length'] }));
      };
      const body = JSON.stringify({ note: 'ünïcode' });
      const data = dataOf(
        await invoke(makeTool(), { method: 'POST', url: `${allowed.origin}/notes`, headers: { 'Content-Type': 'application/json' }, body }),
      );
      expect(JSON.parse(data.body ?? '')).toEqual({ received: body, type: 'application/json', length: String(Buffer.byteLength(body)) });
      expect(allowed.requests[0]?.method).toBe('POST');
    });

    it('returns a 4xx response as a successful call with its status', async () => {
      allowed.handle = (_request, response) => {
        response.statusCode = 404;
        response.end('missing');
      };
      const data = dataOf(await invoke(makeTool(), { url: `${allowed.origin}/nope` }));
      expect(data).toMatchObject({ status: 404, body: 'missing' });
    });

    it('connects to the checked address and sends the URL host when a name resolves to an allow-listed address', async () => {
      resetLookup();
      const data = dataOf(await invoke(makeTool(), { url: `http://api.test:${allowed.port}/x` }));
      expect(data.status).toBe(200);
      expect(lookup.calls).toEqual(['api.test']);
      expect(allowed.requests[0]?.headers.host).toBe(`api.test:${allowed.port}`);
    });
  });

  describe('arguments', () => {
    it.each([
      [{ url: 'http://x.test/', headers: { Host: 'internal' } }, 'HEADER_NOT_ALLOWED'],
      [{ url: 'http://x.test/', headers: { 'Transfer-Encoding': 'chunked' } }, 'HEADER_NOT_ALLOWED'],
      [{ url: 'http://x.test/', headers: { 'Content-Length': '5' } }, 'HEADER_NOT_ALLOWED'],
      [{ url: 'http://x.test/', headers: { 'Proxy-Authorization': 'Basic eA==' } }, 'HEADER_NOT_ALLOWED'],
      [{ url: 'http://x.test/', headers: { 'X-Forwarded-For': '127.0.0.1' } }, 'HEADER_NOT_ALLOWED'],
      [{ url: 'http://x.test/', headers: { 'X-Test': 'a\r\nHost: internal' } }, 'INVALID_HEADER'],
      [{ url: 'http://x.test/', headers: { 'Bad Name': 'a' } }, 'INVALID_HEADER'],
      [{ url: 'http://x.test/', body: 'data' }, 'BODY_NOT_ALLOWED'],
      [{ method: 'POST', url: 'http://x.test/', body: 'x'.repeat(65_537) }, 'BODY_TOO_LARGE'],
      [{ method: 'DELETE', url: 'http://x.test/' }, 'INVALID_METHOD'],
      [{ url: 'http://x.test/', verbose: true }, 'UNKNOWN_ARGUMENT'],
      [{ url: 'ftp://x.test/file' }, 'INVALID_URL'],
      [{ url: 'file:///etc/passwd' }, 'INVALID_URL'],
      [{ url: 'not a url' }, 'INVALID_URL'],
      [{ url: 'http://user:pass@x.test/' }, 'URL_CREDENTIALS_REFUSED'],
    ])('refuses %j with %s before any lookup', async (args, code) => {
      resetLookup();
      const result = await invoke(makeTool(), args);
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe(code);
      expect(lookup.calls).toEqual([]);
    });

    it('never echoes URL credentials in the refusal', async () => {
      const result = await invoke(makeTool(), { url: 'http://admin:hunter2@x.test/' });
      expect(result.error).not.toContain('hunter2');
    });
  });

  describe('SSRF guard', () => {
    const literalForms = (port: number): readonly string[] => [
      `http://127.0.0.1:${port}/`,
      `http://127.0.0.1.:${port}/`,
      `http://127.0.0.2:${port}/`,
      `http://127.1:${port}/`,
      `http://0.0.0.0:${port}/`,
      `http://0:${port}/`,
      `http://2130706433:${port}/`,
      `http://0177.0.0.1:${port}/`,
      `http://0x7f.0.0.1:${port}/`,
      `http://0x7f000001:${port}/`,
      `http://%31%32%37.0.0.1:${port}/`,
      `http://[::1]:${port}/`,
      `http://[::]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::ffff:7f00:1]:${port}/`,
      `http://[::ffff:0:127.0.0.1]:${port}/`,
      `http://[::ffff:0:7f00:1]:${port}/`,
      `http://[::127.0.0.1]:${port}/`,
      `http://[64:ff9b::127.0.0.1]:${port}/`,
      `http://[2002:7f00:1::]:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://[fd00::1]/',
      'http://[ff02::1]/',
      'http://10.0.0.1/',
      'http://172.16.5.4/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://198.18.0.1/',
      'http://224.0.0.1/',
      'http://255.255.255.255/',
    ];

    it('refuses every loopback, private, link-local, metadata, mapped and unspecified form without a lookup or a connection', async () => {
      resetLookup();
      const tool = makeTool();
      for (const url of literalForms(forbidden.port)) {
        const result = await invoke(tool, { url });
        expect(result.success, url).toBe(false);
        expect(result.meta['code'], url).toBe('ADDRESS_FORBIDDEN');
      }
      expect(lookup.calls).toEqual([]);
      expect(forbidden.connections).toBe(0);
    });

    it.each(['localhost', 'LOCALHOST.', 'app.localhost', 'metadata.google.internal', 'metadata', 'instance-data'])(
      'refuses the host name %s by name, before any lookup',
      async (host) => {
        resetLookup({ [host]: ['127.0.0.1'] });
        const result = await invoke(makeTool(), { url: `http://${host}:${forbidden.port}/` });
        expect(result.meta['code']).toBe('HOST_NOT_ALLOWED');
        expect(lookup.calls).toEqual([]);
        expect(forbidden.connections).toBe(0);
      },
    );

    it('refuses an allow-listed address on any other port (the allow-list is address and port)', async () => {
      const result = await invoke(makeTool(), { url: `http://127.0.0.1:${forbidden.port}/` });
      expect(result.meta['code']).toBe('ADDRESS_FORBIDDEN');
      expect(result.error).toContain('loopback');
      expect(forbidden.connections).toBe(0);
    });

    it('refuses a host that resolves to loopback, after exactly one lookup and without a connection', async () => {
      resetLookup();
      const result = await invoke(makeTool(), { url: `http://evil.test:${forbidden.port}/` });
      expect(result.meta['code']).toBe('ADDRESS_FORBIDDEN');
      expect(result.error).toContain('evil.test resolves to 127.0.0.1');
      expect(lookup.calls).toEqual(['evil.test']);
      expect(forbidden.connections).toBe(0);
    });

    it('refuses a host when any one of its addresses is forbidden', async () => {
      resetLookup({ 'mixed.test': ['93.184.216.34', '10.1.2.3'] });
      const result = await invoke(makeTool(), { url: 'http://mixed.test/' });
      expect(result.meta['code']).toBe('ADDRESS_FORBIDDEN');
      expect(result.error).toContain('10.1.2.3');
    });

    it('refuses a host that resolves to an IPv4-mapped loopback address', async () => {
      resetLookup({ 'mapped.test': ['::ffff:127.0.0.1'] });
      const result = await invoke(makeTool(), { url: `http://mapped.test:${forbidden.port}/` });
      expect(result.meta['code']).toBe('ADDRESS_FORBIDDEN');
      expect(forbidden.connections).toBe(0);
    });

    it('refuses a host that resolves to an IPv4-translated loopback address', async () => {
      resetLookup({ 'translated.test': ['::ffff:0:127.0.0.1'] });
      const result = await invoke(makeTool(), { url: `http://translated.test:${forbidden.port}/` });
      expect(result.meta['code']).toBe('ADDRESS_FORBIDDEN');
      expect(forbidden.connections).toBe(0);
    });

    it('returns DNS_LOOKUP_FAILED when the name does not resolve', async () => {
      resetLookup();
      const result = await invoke(makeTool(), { url: 'http://unknown.test/' });
      expect(result.meta['code']).toBe('DNS_LOOKUP_FAILED');
    });

    it('resolves once and connects to the checked address when later lookups would answer differently', async () => {
      // Rebinding: the first answer is the allow-listed address, every later one a forbidden one.
      let answers = 0;
      const rebinding = vi.fn(async (): Promise<readonly LookupAddress[]> => {
        answers += 1;
        return [{ address: answers === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
      });
      const data = dataOf(await invoke(makeTool({ lookup: rebinding }), { url: `http://rebind.test:${allowed.port}/` }));
      expect(data.status).toBe(200);
      expect(rebinding).toHaveBeenCalledTimes(1);
      expect(allowed.requests).toHaveLength(1);
    });

    it('never connects to loopback when a lookup answers a public address first and loopback afterwards', async () => {
      let answers = 0;
      const rebinding = vi.fn(async (): Promise<readonly LookupAddress[]> => {
        answers += 1;
        return [{ address: answers === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
      });
      // No internet here: the connection to the public address fails or times out, which is fine.
      await invoke(makeTool({ lookup: rebinding, timeoutMs: 300 }), { url: `http://rebind.test:${forbidden.port}/` });
      expect(rebinding).toHaveBeenCalledTimes(1);
      expect(forbidden.connections).toBe(0);
    });

    it('refuses hosts outside allowedHosts when that list is set', async () => {
      resetLookup({ 'other.test': ['93.184.216.34'] });
      const tool = makeTool({ allowedHosts: ['api.test', '*.example.test'] });
      const refused = await invoke(tool, { url: 'http://other.test/' });
      expect(refused.meta['code']).toBe('HOST_NOT_ALLOWED');
      expect(lookup.calls).toEqual([]);
      const data = dataOf(await invoke(tool, { url: `http://api.test:${allowed.port}/` }));
      expect(data.status).toBe(200);
    });
  });

  describe('redirects', () => {
    it('follows a redirect to another allow-listed address and reports the chain', async () => {
      allowed.handle = (_request, response) => {
        response.writeHead(302, { location: `${second.origin}/landing` });
        response.end();
      };
      second.handle = (_request, response) => response.end('landed');
      const data = dataOf(await invoke(makeTool(), { url: `${allowed.origin}/start` }));
      expect(data).toMatchObject({ status: 200, body: 'landed', url: `${second.origin}/landing`, redirects: [`${second.origin}/landing`] });
    });

    it('continues a POST as a GET without the body after 303', async () => {
      allowed.handle = (request, response) => {
        if (request.url === '/form') response.writeHead(303, { location: '/result' }).end();
        else response.end(`${request.method} ${request.headers['content-type'] ?? 'no type'}`);
      };
      const data = dataOf(await invoke(makeTool(), { method: 'POST', url: `${allowed.origin}/form`, body: 'a=1' }));
      expect(data.body).toBe('GET no type');
      expect(allowed.requests.map((request) => `${request.method} ${request.url} ${request.body}`)).toEqual([
        'POST /form a=1',
        'GET /result ',
      ]);
    });

    it('drops every header but a short safe list when a redirect leaves the origin', async () => {
      allowed.handle = (_request, response) => response.writeHead(307, { location: `${second.origin}/next` }).end();
      const headers = {
        Authorization: 'Bearer t',
        Cookie: 'a=b',
        'X-Api-Key': 'key-1',
        'Private-Token': 'tok-1',
        'X-Keep': '1',
        Accept: 'application/json',
        'Accept-Language': 'es',
      };
      dataOf(await invoke(makeTool(), { url: `${allowed.origin}/`, headers }));
      expect(allowed.requests[0]?.headers).toMatchObject({
        authorization: 'Bearer t',
        cookie: 'a=b',
        'x-api-key': 'key-1',
        'private-token': 'tok-1',
        'x-keep': '1',
      });
      const forwarded = second.requests[0]?.headers ?? {};
      for (const name of ['authorization', 'cookie', 'x-api-key', 'private-token', 'x-keep']) expect(forwarded).not.toHaveProperty(name);
      expect(forwarded).toMatchObject({ accept: 'application/json', 'accept-language': 'es', 'user-agent': 'milpa-http-request' });
    });

    it('keeps every header on a redirect within the same origin', async () => {
      allowed.handle = (request, response) =>
        request.url === '/' ? response.writeHead(302, { location: '/next' }).end() : response.end('ok');
      dataOf(await invoke(makeTool(), { url: `${allowed.origin}/`, headers: { 'X-Api-Key': 'key-1', Authorization: 'Bearer t' } }));
      expect(allowed.requests[1]?.headers).toMatchObject({ 'x-api-key': 'key-1', authorization: 'Bearer t' });
    });

    it.each([
      ['another port of 127.0.0.1', (): string => `http://127.0.0.1:${forbidden.port}/`],
      ['the metadata address', (): string => 'http://169.254.169.254/latest/meta-data/'],
      ['IPv6 loopback', (): string => `http://[::1]:${forbidden.port}/`],
      ['a decimal loopback form', (): string => `http://2130706433:${forbidden.port}/`],
      ['a name resolving to loopback', (): string => `http://evil.test:${forbidden.port}/`],
    ])('refuses a redirect to %s, naming the hop, and the target receives nothing', async (_label, target) => {
      resetLookup();
      allowed.handle = (_request, response) => response.writeHead(302, { location: target() }).end();
      const result = await invoke(makeTool(), { url: `${allowed.origin}/go` });
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('ADDRESS_FORBIDDEN');
      expect(result.error).toMatch(/^Redirect 1 to /);
      expect(result.meta['redirect']).toBe(1);
      expect(forbidden.connections).toBe(0);
      expect(forbidden.requests).toHaveLength(0);
    });

    it('refuses a redirect to a URL with credentials or another scheme', async () => {
      allowed.handle = (_request, response) => response.writeHead(301, { location: 'file:///etc/passwd' }).end();
      const result = await invoke(makeTool(), { url: `${allowed.origin}/` });
      expect(result.meta['code']).toBe('INVALID_URL');
      expect(result.error).toMatch(/^Redirect 1 to file:/);
    });

    it('returns TOO_MANY_REDIRECTS after the fifth redirect', async () => {
      let hops = 0;
      allowed.handle = (_request, response) => {
        hops += 1;
        response.writeHead(302, { location: `/hop${hops}` }).end();
      };
      const result = await invoke(makeTool(), { url: `${allowed.origin}/` });
      expect(result.meta['code']).toBe('TOO_MANY_REDIRECTS');
      expect(allowed.requests).toHaveLength(6);
    });
  });

  describe('response limits', () => {
    it('returns 8192 bytes and marks the body truncated when the server sends 100 KiB', async () => {
      allowed.handle = (_request, response) => {
        response.setHeader('content-type', 'text/plain');
        response.end('a'.repeat(100 * 1024));
      };
      const result = await invoke(makeTool(), { url: `${allowed.origin}/big` });
      const data = dataOf(result);
      expect(data.truncated).toBe(true);
      expect(data.body).toHaveLength(8192);
      expect(result.meta['warnings']).toEqual(['Response body truncated at 8192 bytes.']);
    });

    it('keeps a body of exactly the cap whole', async () => {
      allowed.handle = (_request, response) => response.end('b'.repeat(8192));
      const data = dataOf(await invoke(makeTool(), { url: `${allowed.origin}/exact` }));
      expect(data).toMatchObject({ truncated: false });
      expect(data.body).toHaveLength(8192);
    });

    it.each([
      [{ 'content-type': 'image/png' }, 'binary content (image/png)'],
      [{ 'content-type': 'text/plain', 'content-encoding': 'gzip' }, 'encoded (gzip)'],
    ])('does not return a body with headers %j', async (headers, reason) => {
      allowed.handle = (_request, response) => response.writeHead(200, headers).end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      const data = dataOf(await invoke(makeTool(), { url: `${allowed.origin}/file` }));
      expect(data.body).toBeNull();
      expect(data.body_omitted).toContain(reason);
    });

    it('returns REQUEST_TIMEOUT when the server never answers', async () => {
      allowed.handle = () => undefined;
      const result = await invoke(makeTool({ timeoutMs: 200 }), { url: `${allowed.origin}/hang` });
      expect(result.meta['code']).toBe('REQUEST_TIMEOUT');
    });

    it('returns REQUEST_TIMEOUT when the body never ends', async () => {
      allowed.handle = (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('partial');
      };
      const result = await invoke(makeTool({ timeoutMs: 200 }), { url: `${allowed.origin}/slow` });
      expect(result.meta['code']).toBe('REQUEST_TIMEOUT');
    });

    it('names the redirect target when the time runs out there', async () => {
      allowed.handle = (_request, response) => response.writeHead(302, { location: `${second.origin}/hang` }).end();
      second.handle = () => undefined;
      const result = await invoke(makeTool({ timeoutMs: 300 }), { url: `${allowed.origin}/` });
      expect(result.meta['code']).toBe('REQUEST_TIMEOUT');
      expect(result.error).toContain(`127.0.0.1:${second.port}`);
    });

    it('returns REQUEST_ABORTED when the call signal aborts', async () => {
      allowed.handle = () => undefined;
      const controller = new AbortController();
      const pending = invoke(makeTool(), { url: `${allowed.origin}/hang` }, controller.signal);
      setTimeout(() => controller.abort(), 20);
      const result = await pending;
      expect(result.meta['code']).toBe('REQUEST_ABORTED');
    });

    it('returns REQUEST_FAILED when nothing listens on the allowed port', async () => {
      const closed = await startServer();
      const port = closed.port;
      await closed.close();
      const result = await invoke(httpRequestTool({ allowedAddresses: [`127.0.0.1:${port}`], lookup }), {
        url: `http://127.0.0.1:${port}/`,
      });
      expect(result.meta['code']).toBe('REQUEST_FAILED');
      expect(result.error).toContain('ECONNREFUSED');
    });
  });

  describe('through a ToolRegistry', () => {
    it('answers a GET and refuses a metadata address through the governed pipeline', async () => {
      allowed.handle = (_request, response) => response.end('via registry');
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(makeTool());
      const ok = await registry.call('http_request', { url: `${allowed.origin}/r` });
      expect(ok.success).toBe(true);
      expect((ok.data as HttpResponseData).body).toBe('via registry');
      const refused = await registry.call('http_request', { url: 'http://169.254.169.254/latest/meta-data/' });
      expect(refused.success).toBe(false);
      expect(refused.meta['code']).toBe('ADDRESS_FORBIDDEN');
    });

    it('denies a caller without the http:request scope before any request', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(makeTool());
      const denied = await registry.call(
        'http_request',
        { url: `${allowed.origin}/r` },
        new ToolContext({ channel: 'web', principal: 'user:1', scopes: ['files:read'] }),
      );
      expect(denied.success).toBe(false);
      expect(denied.meta['code']).toBe('FORBIDDEN');
      expect(allowed.connections).toBe(0);
    });
  });
});
