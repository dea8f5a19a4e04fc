import { existsSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { defineTool } from '@milpa/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotesRegistry } from '../../test/support/notes-registry.js';
import { serveStdio } from './serve-stdio.js';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
// The child runs plain JavaScript against the built packages (dist/), as a user's server would: no
// TypeScript loader to start, so its start-up cost does not grow with the machine's load.
const FIXTURE = fileURLToPath(new URL('../../test/fixtures/stdio-server.js', import.meta.url));
const BUILT_ENTRY = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** Reads newline-delimited JSON-RPC messages from a stream. */
function messagesOf(stream: PassThrough): { next: () => Promise<Record<string, unknown>> } {
  const queue: Record<string, unknown>[] = [];
  const waiters: ((message: Record<string, unknown>) => void)[] = [];
  let buffer = '';
  stream.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      const message = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
      buffer = buffer.slice(newline + 1);
      const waiter = waiters.shift();
      if (waiter === undefined) queue.push(message);
      else waiter(message);
      newline = buffer.indexOf('\n');
    }
  });
  return {
    next: () => new Promise((resolve) => (queue.length > 0 ? resolve(queue.shift() as Record<string, unknown>) : waiters.push(resolve))),
  };
}

function send(stream: PassThrough, message: unknown): void {
  stream.write(`${JSON.stringify(message)}\n`);
}

/** Serves `registry` on in-memory stdin/stdout; returns the streams, the output reader and the handle. */
async function startInProcess(registry: Parameters<typeof serveStdio>[0]) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const output = messagesOf(stdout);
  const handle = await serveStdio(registry, { stdin, stdout });
  return { stdin, output, handle };
}

async function initialize(stdin: PassThrough, output: ReturnType<typeof messagesOf>): Promise<void> {
  send(stdin, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  await output.next();
  send(stdin, { jsonrpc: '2.0', method: 'notifications/initialized' });
}

describe('serveStdio', () => {
  describe('as a child process', () => {
    // One child for all these tests; the last one closes it.
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    const transport = new StdioClientTransport({ command: process.execPath, args: [FIXTURE], cwd: PACKAGE_DIR, stderr: 'pipe' });
    let stderr = '';
    beforeAll(async () => {
      if (!existsSync(BUILT_ENTRY))
        throw new Error('dist/ is missing: run `pnpm turbo run build --filter=@milpa/mcp` (pnpm test at the root builds first).');
      transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      await client.connect(transport);
    });
    afterAll(async () => {
      await client.close();
    });

    it('serves the registry to an SDK client with the trusted stdio context', async () => {
      expect(client.getServerVersion()).toEqual({ name: 'notes-stdio', version: '1.2.3' });
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('delete_note');
      const who = await client.callTool({ name: 'whoami', arguments: {} });
      expect(who.structuredContent).toMatchObject({ principal: 'stdio', channel: 'mcp', scopes: ['*'] });
      expect((who.structuredContent as { pid: number }).pid).not.toBe(process.pid);
    });

    it('runs the two-call confirmation flow for a client without elicitation', async () => {
      const ask = await client.callTool({ name: 'delete_note', arguments: { id: 3 } });
      const token = (ask.structuredContent as { confirm_token: string }).confirm_token;
      expect(ask.isError).toBe(true);
      const done = await client.callTool({ name: 'delete_note', arguments: { id: 3, confirm_token: token } });
      expect(done.structuredContent).toEqual({ deleted: 3 });
    });

    it('closes the connection and exits on its own when the client closes stdin', async () => {
      // The SDK transport ends stdin and waits for the child to exit before it resorts to SIGTERM.
      await client.close();
      // Written after serveStdio's `closed` settles, so the child ended on its own rather than by a signal.
      expect(stderr).toContain('stdio fixture: connection closed');
    });
  });

  describe('in process', () => {
    it('aborts running handlers and settles closed when stdin ends', async () => {
      const { registry, recorder } = createNotesRegistry();
      const { stdin, output, handle } = await startInProcess(registry);
      await initialize(stdin, output);
      send(stdin, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait_for_abort', arguments: {} } });
      await recorder.started;
      stdin.end();
      await expect(recorder.aborted).resolves.toBeDefined();
      await expect(handle.closed).resolves.toBeUndefined();
    });

    it('uses the configured principal and scopes instead of stdio and *', async () => {
      const { registry } = createNotesRegistry();
      registry.register(
        defineTool({
          name: 'whoami',
          description: 'Who',
          handler: (_args, { context }) => ({ principal: context.principal, scopes: context.scopes }),
        }),
      );
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const output = messagesOf(stdout);
      const handle = await serveStdio(registry, { stdin, stdout, principal: 'agent:local', scopes: ['notes:read'] });
      await initialize(stdin, output);
      send(stdin, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } });
      const who = await output.next();
      expect(who).toMatchObject({ id: 2, result: { structuredContent: { principal: 'agent:local', scopes: ['notes:read'] } } });
      send(stdin, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'delete_note', arguments: { id: 1 } } });
      // A tool those scopes do not reach is answered as an unknown tool (InvalidParams), not as a scope refusal.
      const denied = await output.next();
      expect(denied).toMatchObject({ id: 3, error: { code: -32602, message: expect.stringContaining('Tool not found: delete_note') } });
      await handle.close();
    });

    it('answers a line that is not JSON with -32700 and keeps serving', async () => {
      const { registry } = createNotesRegistry();
      const { stdin, output, handle } = await startInProcess(registry);
      stdin.write('this is not json\n');
      expect(await output.next()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: the line is not valid JSON' },
      });
      await initialize(stdin, output);
      send(stdin, { jsonrpc: '2.0', id: 2, method: 'ping' });
      expect(await output.next()).toMatchObject({ id: 2, result: {} });
      await handle.close();
    });

    it('answers a batch with -32600 and runs none of its requests', async () => {
      const { registry, recorder } = createNotesRegistry();
      const { stdin, output, handle } = await startInProcess(registry);
      await initialize(stdin, output);
      send(stdin, [{ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'wait_for_abort', arguments: {} } }]);
      const answer = await output.next();
      expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      send(stdin, { jsonrpc: '2.0', id: 6, method: 'ping' });
      expect(await output.next()).toMatchObject({ id: 6 });
      let started = false;
      void recorder.started.then(() => (started = true));
      await Promise.resolve();
      expect(started).toBe(false);
      await handle.close();
    });

    it('refuses a line nested two million levels deep with -32600 before parsing it, and answers a ping right after', async () => {
      const { registry } = createNotesRegistry();
      const { stdin, output, handle } = await startInProcess(registry);
      await initialize(stdin, output);
      stdin.write(`${'['.repeat(2_000_000)}${']'.repeat(2_000_000)}\n`);
      const started = performance.now();
      send(stdin, { jsonrpc: '2.0', id: 7, method: 'ping' });
      expect(await output.next()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('deeper than 64') } });
      expect(await output.next()).toMatchObject({ id: 7, result: {} });
      // JSON.parse of such a line took seconds; the pre-scan takes milliseconds. Loose bound for a loaded machine.
      expect(performance.now() - started).toBeLessThan(1500);
      await handle.close();
    });

    it('drops a line longer than maxLineBytes as it arrives, answers -32600, and keeps serving', async () => {
      const { registry } = createNotesRegistry();
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const output = messagesOf(stdout);
      const handle = await serveStdio(registry, { stdin, stdout, maxLineBytes: 1024 });
      await initialize(stdin, output);
      for (let chunk = 0; chunk < 10; chunk += 1) stdin.write(`"${'x'.repeat(500)}`);
      stdin.write('"\n');
      expect(await output.next()).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('1024 bytes') } });
      send(stdin, { jsonrpc: '2.0', id: 8, method: 'ping' });
      expect(await output.next()).toMatchObject({ id: 8, result: {} });
      await handle.close();
    });

    it('refuses a second initialize, so the negotiated protocol version cannot be downgraded', async () => {
      const { registry } = createNotesRegistry();
      const { stdin, output, handle } = await startInProcess(registry);
      await initialize(stdin, output);
      send(stdin, {
        jsonrpc: '2.0',
        id: 9,
        method: 'initialize',
        params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'again', version: '1' } },
      });
      expect(await output.next()).toMatchObject({
        id: 9,
        error: { code: -32600, message: expect.stringContaining('already initialized') },
      });
      send(stdin, { jsonrpc: '2.0', id: 10, method: 'ping' });
      expect(await output.next()).toMatchObject({ id: 10, result: {} });
      await handle.close();
    });

    it('refuses tools/call and tools/list before initialize, and runs nothing', async () => {
      const { registry, recorder } = createNotesRegistry();
      const { stdin, output, handle } = await startInProcess(registry);
      send(stdin, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait_for_abort', arguments: {} } });
      expect(await output.next()).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32600, message: "Invalid Request: 'tools/call' before initialize; send initialize first" },
      });
      send(stdin, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
      expect(await output.next()).toMatchObject({ id: 2, error: { code: -32600 } });
      send(stdin, { jsonrpc: '2.0', id: 3, method: 'ping' });
      expect(await output.next()).toMatchObject({ id: 3, result: {} });
      send(stdin, {
        jsonrpc: '2.0',
        id: 4,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      expect(await output.next()).toMatchObject({ id: 4, result: { serverInfo: expect.any(Object) } });
      send(stdin, { jsonrpc: '2.0', method: 'notifications/initialized' });
      send(stdin, { jsonrpc: '2.0', id: 5, method: 'tools/list' });
      expect(await output.next()).toMatchObject({ id: 5, result: { tools: expect.any(Array) } });
      let started = false;
      void recorder.started.then(() => (started = true));
      await Promise.resolve();
      expect(started).toBe(false);
      await handle.close();
    });
  });
});
