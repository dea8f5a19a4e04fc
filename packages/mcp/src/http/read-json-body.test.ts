import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readJsonBody } from './read-json-body.js';

function body(headers: Record<string, string> = {}): PassThrough & IncomingMessage {
  const stream = new PassThrough() as PassThrough & IncomingMessage;
  (stream as { headers: Record<string, string> }).headers = headers;
  return stream;
}

describe('readJsonBody', () => {
  it('parses a complete JSON body', async () => {
    const request = body();
    const read = readJsonBody(request, 100, 10_000);
    request.end('{"a":1}');
    await expect(read).resolves.toEqual({ ok: true, value: { a: 1 } });
  });

  it('refuses a declared length over the bound before reading anything', async () => {
    await expect(readJsonBody(body({ 'content-length': '101' }), 100, 10_000)).resolves.toMatchObject({ ok: false, status: 413 });
  });

  it('refuses a streamed body as soon as it exceeds the bound', async () => {
    const request = body();
    const read = readJsonBody(request, 4, 10_000);
    request.write('12345');
    await expect(read).resolves.toEqual({ ok: false, status: 413, code: -32000, message: 'Request body exceeds 4 bytes' });
  });

  it('refuses invalid JSON with 400', async () => {
    const request = body();
    const read = readJsonBody(request, 100, 10_000);
    request.end('{nope');
    await expect(read).resolves.toMatchObject({ ok: false, status: 400 });
  });

  it('refuses a body that does not complete within the timeout with 408', async () => {
    const request = body();
    const read = readJsonBody(request, 100, 50);
    request.write('{"a":');
    await expect(read).resolves.toEqual({ ok: false, status: 408, code: -32000, message: 'Request body not received within 50 ms' });
  });

  it('refuses a body nested deeper than the bound with -32600, before parsing it', async () => {
    const request = body();
    const read = readJsonBody(request, 10_000_000, 10_000, 64);
    request.end(`${'['.repeat(2_000_000)}${']'.repeat(2_000_000)}`);
    await expect(read).resolves.toMatchObject({ ok: false, status: 400, code: -32600 });
    const shallow = body();
    const fine = readJsonBody(shallow, 10_000, 10_000, 64);
    shallow.end(`${'['.repeat(64)}${']'.repeat(64)}`);
    await expect(fine).resolves.toMatchObject({ ok: true });
  });

  it('settles when the request is aborted', async () => {
    const request = body();
    const read = readJsonBody(request, 100, 10_000);
    request.emit('aborted');
    await expect(read).resolves.toMatchObject({ ok: false, status: 400 });
  });
});
