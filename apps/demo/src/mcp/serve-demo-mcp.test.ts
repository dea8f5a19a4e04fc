import { createServer, type AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../cli/cli-io.js';
import { DemoUsageError } from '../cli/demo-usage-error.js';
import { serveDemoMcp } from './serve-demo-mcp.js';

interface Served {
  readonly url: URL;
  readonly stderr: () => string;
  readonly done: Promise<void>;
}

const stops: (() => void)[] = [];
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const stop of stops.splice(0)) stop();
});

/** Serves the demo over HTTP on a free port and resolves once the URL is printed. */
async function serve(options: { token?: string; actor?: string; scopes?: readonly string[] } = {}): Promise<Served> {
  let stderr = '';
  let stop!: () => void;
  const stopSignal = new Promise<void>((resolve) => (stop = resolve));
  stops.push(stop);
  let announced!: (url: URL) => void;
  const url = new Promise<URL>((resolve) => (announced = resolve));
  const io: CliIo = {
    stdout: () => undefined,
    stderr: (text) => {
      stderr += text;
      const match = /(http:\/\/\S+\/mcp)/.exec(stderr);
      if (match?.[1] !== undefined) announced(new URL(match[1]));
    },
    stdoutIsTTY: false,
    env: {},
  };
  const done = serveDemoMcp({ httpPort: 0, stopSignal, ...options }, io);
  return { url: await Promise.race([url, done.then(() => Promise.reject(new Error(stderr)))]), stderr: () => stderr, done };
}

async function connect(url: URL, token?: string): Promise<Client> {
  const client = new Client({ name: 'demo-test', version: '1.0.0' });
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  clients.push(client);
  return client;
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('\n');
}

describe('serveDemoMcp', () => {
  describe('over Streamable HTTP', () => {
    it('serves the demo tools to a client holding the bearer token, as the identity the token stands for', async () => {
      const served = await serve({ token: 'test-token-123', actor: 'agent:tester', scopes: ['notes:read'] });
      const client = await connect(served.url, 'test-token-123');
      const { tools } = await client.listTools();
      // Offered exactly what a notes:read token may call: no write tool.
      const names = tools.map((tool) => tool.name);
      expect(names).toContain('list_notes');
      expect(names).not.toContain('delete_note');
      expect(names).not.toContain('publish_report');
      const listed = await client.callTool({ name: 'list_notes', arguments: { per_page: 2 } });
      expect(listed.isError).not.toBe(true);
      expect(textOf(listed)).toContain('Plant the milpa');
      const denied = await client.callTool({ name: 'delete_note', arguments: { id: 2 } });
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toContain('Need one of: notes:write — context has: notes:read');
      expect(served.stderr()).toContain('| mcp | list_notes | agent:tester |');
    });

    it('denies the tool calls of a client without the token, with the require_auth message', async () => {
      const served = await serve({ token: 'test-token-123' });
      const client = await connect(served.url);
      const denied = await client.callTool({ name: 'list_notes', arguments: {} });
      expect(denied.isError).toBe(true);
      expect(textOf(denied)).toContain("channel 'mcp' requires an authenticated principal (require_auth)");
    });

    it('refuses a wrong token before any session opens', async () => {
      const served = await serve({ token: 'test-token-123' });
      await expect(connect(served.url, 'wrong-token')).rejects.toThrow(/401|Unknown token|Unauthorized/i);
    });

    it('prints the URL, the token and the identity it stands for on stderr, and stops on the stop signal', async () => {
      const served = await serve({ token: 'test-token-123' });
      expect(served.stderr()).toContain('Authorization: Bearer test-token-123');
      expect(served.stderr()).toContain('stands for principal agent:mcp-client with scopes notes:read, notes:write');
      for (const stop of stops.splice(0)) stop();
      await expect(served.done).resolves.toBeUndefined();
    });

    it('reports a port in use as bad input, with a hint', async () => {
      const blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      const { port } = blocker.address() as AddressInfo;
      const io: CliIo = { stdout: () => undefined, stderr: () => undefined, stdoutIsTTY: false, env: {} };
      try {
        const failure = serveDemoMcp({ httpPort: port, token: 't' }, io);
        await expect(failure).rejects.toBeInstanceOf(DemoUsageError);
        await expect(failure).rejects.toThrow(`port ${port} is already in use`);
      } finally {
        await new Promise((resolve) => blocker.close(resolve));
      }
    });

    it('rejects an empty token as bad input', async () => {
      const io: CliIo = { stdout: () => undefined, stderr: () => undefined, stdoutIsTTY: false, env: {} };
      await expect(serveDemoMcp({ httpPort: 0, token: ' ' }, io)).rejects.toBeInstanceOf(DemoUsageError);
    });
  });
});
