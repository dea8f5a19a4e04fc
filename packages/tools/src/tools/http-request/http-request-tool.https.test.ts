import { ToolContext, type ToolResult, unsupportedCaller } from '@milpa/core';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { httpRequestTool, type HttpRequestArgs, type HttpResponseData } from './http-request-tool.js';

/** A throw-away self-signed certificate for `secure.test` and 127.0.0.1, made by openssl when present. */
function makeCertificate(): { key: string; cert: string } | null {
  const directory = mkdtempSync(join(tmpdir(), 'milpa-http-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=secure.test',
        '-addext',
        'subjectAltName=DNS:secure.test,IP:127.0.0.1',
        '-keyout',
        join(directory, 'key.pem'),
        '-out',
        join(directory, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(directory, 'key.pem'), 'utf8'), cert: readFileSync(join(directory, 'cert.pem'), 'utf8') };
  } catch {
    return null;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const certificate = makeCertificate();

async function listen<T extends HttpServer | HttpsServer>(server: T): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

describe.skipIf(certificate === null)('httpRequestTool over https', () => {
  let secure: HttpsServer;
  let plain: HttpServer;
  let securePort = 0;
  let plainPort = 0;
  let plainRequests = 0;
  let serverNames: (string | false)[] = [];

  beforeAll(async () => {
    secure = createHttpsServer({ key: certificate?.key, cert: certificate?.cert }, (request, response) => {
      serverNames.push((request.socket as unknown as { servername: string | false }).servername);
      if (request.url === '/downgrade') response.writeHead(302, { location: `http://127.0.0.1:${plainPort}/` }).end();
      else response.writeHead(200, { 'content-type': 'text/plain' }).end(`secure ${request.headers.host}`);
    });
    plain = createHttpServer((_request, response) => {
      plainRequests += 1;
      response.end('plain');
    });
    [securePort, plainPort] = await Promise.all([listen(secure), listen(plain)]);
  });

  afterAll(async () => {
    for (const server of [secure, plain]) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  const makeTool = () =>
    httpRequestTool({
      allowedAddresses: [`127.0.0.1:${securePort}`, `127.0.0.1:${plainPort}`],
      extraCa: certificate?.cert ?? '',
      lookup: vi.fn(async () => [{ address: '127.0.0.1', family: 4 }]),
    });

  const invoke = (args: HttpRequestArgs): Promise<ToolResult> =>
    Promise.resolve(
      makeTool().handler(args, { context: ToolContext.cli(), signal: new AbortController().signal, caller: unsupportedCaller }),
    ) as Promise<ToolResult>;

  it('verifies the certificate against the URL host name while connecting to the checked address', async () => {
    serverNames = [];
    const result = await invoke({ url: `https://secure.test:${securePort}/` });
    expect(result.error).toBeNull();
    expect((result.data as HttpResponseData).body).toBe(`secure secure.test:${securePort}`);
    expect(serverNames).toEqual(['secure.test']);
  });

  it('refuses a certificate from an untrusted authority', async () => {
    const tool = httpRequestTool({ allowedAddresses: [`127.0.0.1:${securePort}`] });
    const result = (await tool.handler(
      { url: `https://127.0.0.1:${securePort}/` },
      { context: ToolContext.cli(), signal: new AbortController().signal, caller: unsupportedCaller },
    )) as ToolResult;
    expect(result.meta['code']).toBe('REQUEST_FAILED');
  });

  it('refuses a redirect from https to http, and the http target receives nothing', async () => {
    plainRequests = 0;
    const result = await invoke({ url: `https://secure.test:${securePort}/downgrade` });
    expect(result.meta['code']).toBe('REDIRECT_REFUSED');
    expect(result.error).toMatch(/^Redirect 1 to http:\/\/127\.0\.0\.1:\d+\/ refused: it downgrades https to http\.$/);
    expect(plainRequests).toBe(0);
  });
});
