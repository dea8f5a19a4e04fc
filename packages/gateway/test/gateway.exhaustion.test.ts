// The gateway serves with @milpa/mcp's servers, so what protects them protects it: a message nested
// two million levels deep is refused before it is parsed, and the gateway keeps answering.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, parseGatewayConfig, type Gateway } from '../src/index.js';
import { CallLog, stdioUpstream } from './support/upstream-fixture.js';

const log = new CallLog();
let gateway: Gateway;

beforeAll(async () => {
  gateway = await createGateway(parseGatewayConfig({ upstreams: [stdioUpstream('up', log)] }, { env: {} }));
  await gateway.whenReady();
});

afterAll(async () => {
  await gateway?.close();
});

/** Reads one JSON message per line from `stream`. */
function messagesOf(stream: PassThrough): () => Promise<Record<string, unknown>> {
  const queue: Record<string, unknown>[] = [];
  const waiting: ((message: Record<string, unknown>) => void)[] = [];
  let buffer = '';
  stream.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, end)) as Record<string, unknown>;
      buffer = buffer.slice(end + 1);
      const next = waiting.shift();
      if (next === undefined) queue.push(message);
      else next(message);
    }
  });
  return () => {
    const queued = queue.shift();
    return queued === undefined ? new Promise((resolve) => waiting.push(resolve)) : Promise.resolve(queued);
  };
}

describe('Gateway under a deeply nested message', () => {
  it('refuses a line nested two million levels deep with -32600 and answers a ping right after', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const next = messagesOf(stdout);
    await gateway.serveStdio({ stdin, stdout });
    const send = (message: unknown) => stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(await next()).toMatchObject({ id: 1, result: expect.any(Object) });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    stdin.write(`${'['.repeat(2_000_000)}${']'.repeat(2_000_000)}\n`);
    const started = performance.now();
    send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(await next()).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await next()).toMatchObject({ id: 2, result: {} });
    // Parsing such a line took seconds; the pre-scan takes milliseconds. Loose bound for a loaded machine.
    expect(performance.now() - started).toBeLessThan(1500);
    stdin.end();
  });
});
