import { createServer, type AddressInfo } from 'node:net';
import { MCP_ERROR_META_KEY } from '@milpa/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, McpError, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../cli/cli-io.js';
import { DemoUsageError } from '../cli/demo-usage-error.js';
import { serveDemoMcp, type ServeDemoMcpOptions } from './serve-demo-mcp.js';

const TOKEN = 'test-token-5f0c2a9e71d4b3c8';

interface Served {
  readonly url: URL;
  /** Everything the server wrote to stdout and stderr so far. */
  readonly output: () => { readonly stdout: string; readonly stderr: string };
  readonly done: Promise<void>;
}

type CallResult = Awaited<ReturnType<Client['callTool']>>;

const stops: (() => void)[] = [];
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const stop of stops.splice(0)) stop();
});

function quietIo(env: CliIo['env']): CliIo {
  return { stdout: () => undefined, stderr: () => undefined, stdoutIsTTY: false, env };
}

/** Serves the demo over HTTP on a free port, with MILPA_DEMO_MCP_TOKEN set, and resolves once the URL is printed. */
async function serve(options: Omit<ServeDemoMcpOptions, 'httpPort' | 'stopSignal'> = {}): Promise<Served> {
  let stdout = '';
  let stderr = '';
  let stop!: () => void;
  const stopSignal = new Promise<void>((resolve) => (stop = resolve));
  stops.push(stop);
  let announced!: (url: URL) => void;
  const url = new Promise<URL>((resolve) => (announced = resolve));
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
      const match = /(http:\/\/\S+\/mcp)/.exec(stderr);
      if (match?.[1] !== undefined) announced(new URL(match[1]));
    },
    stdoutIsTTY: false,
    env: { MILPA_DEMO_MCP_TOKEN: TOKEN },
  };
  const done = serveDemoMcp({ ...options, httpPort: 0, stopSignal }, io);
  return { url: await Promise.race([url, done.then(() => Promise.reject(new Error(stderr)))]), output: () => ({ stdout, stderr }), done };
}

/**
 * Connects an SDK client with `token`. With `answer`, the client declares elicitation forms and
 * answers every `elicitation/create` with it; the requests it received are in `elicitations`.
 */
async function connect(
  url: URL,
  token: string,
  answer?: ElicitResult,
): Promise<{ client: Client; elicitations: ElicitRequest['params'][] }> {
  const elicitations: ElicitRequest['params'][] = [];
  const client = new Client(
    { name: 'demo-test', version: '1.0.0' },
    answer === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      elicitations.push(request.params);
      return answer;
    });
  }
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  clients.push(client);
  return { client, elicitations };
}

function textOf(result: CallResult): string {
  return (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('\n');
}

function errorOf(result: CallResult): { code?: string; confirm_token?: string } {
  return (result._meta?.[MCP_ERROR_META_KEY] ?? {}) as { code?: string; confirm_token?: string };
}

/** How many notes carry `tag`, read back through the server. */
async function countTagged(client: Client, tag: string): Promise<number> {
  const listed = await client.callTool({ name: 'list_notes', arguments: { tag } });
  expect(listed.isError).not.toBe(true);
  // One line per note: "#6: Water the squash".
  return textOf(listed).match(/^#\d+: /gm)?.length ?? 0;
}

describe('serveDemoMcp', () => {
  describe('over Streamable HTTP', () => {
    it('serves the demo tools to a client holding the token from MILPA_DEMO_MCP_TOKEN, as the identity the token stands for', async () => {
      const served = await serve({ actor: 'agent:tester', scopes: ['notes:read'] });
      const { client } = await connect(served.url, TOKEN);
      const { tools } = await client.listTools();
      // Offered exactly what a notes:read token may call: no write tool.
      const names = tools.map((tool) => tool.name);
      expect(names).toContain('list_notes');
      expect(names).not.toContain('delete_note');
      expect(names).not.toContain('publish_report');
      const listed = await client.callTool({ name: 'list_notes', arguments: { per_page: 2 } });
      expect(listed.isError).not.toBe(true);
      expect(textOf(listed)).toContain('Plant the milpa');
      // A tool the token may not call is answered as an unknown tool: neither its name nor its scope is confirmed.
      const denied = await client.callTool({ name: 'delete_note', arguments: { id: 2 } }).catch((error: unknown) => error);
      expect(denied).toBeInstanceOf(McpError);
      expect((denied as McpError).message).toContain('Tool not found: delete_note');
      expect(served.output().stderr).toContain('| mcp | list_notes | agent:tester |');
    });

    it('refuses a wrong token before any session opens', async () => {
      const served = await serve();
      await expect(connect(served.url, 'wrong-token')).rejects.toThrow(/401|Unknown token|Unauthorized/i);
    });

    it('prints the URL and the identity the token stands for, never the token, and stops on the stop signal', async () => {
      const served = await serve();
      const { client } = await connect(served.url, TOKEN);
      expect((await client.callTool({ name: 'list_notes', arguments: {} })).isError).not.toBe(true);
      await expect(connect(served.url, `${TOKEN}-wrong`)).rejects.toThrow();
      for (const stop of stops.splice(0)) stop();
      await expect(served.done).resolves.toBeUndefined();
      const { stdout, stderr } = served.output();
      expect(stderr).toContain('Authorization: Bearer <the value of MILPA_DEMO_MCP_TOKEN>');
      expect(stderr).toContain('stands for principal agent:mcp-client with scopes notes:read, notes:write');
      expect(stderr).toContain('| mcp | list_notes | agent:mcp-client |');
      expect(stdout).toBe('');
      expect(stderr).not.toContain(TOKEN);
    });

    it('refuses to start without MILPA_DEMO_MCP_TOKEN, naming the variable, and prints nothing', async () => {
      let printed = '';
      const io: CliIo = { stdout: (text) => (printed += text), stderr: (text) => (printed += text), stdoutIsTTY: false, env: {} };
      const failure = serveDemoMcp({ httpPort: 0 }, io);
      await expect(failure).rejects.toBeInstanceOf(DemoUsageError);
      await expect(failure).rejects.toThrow('MILPA_DEMO_MCP_TOKEN is not set');
      await expect(failure).rejects.toHaveProperty('hint', expect.stringContaining('export MILPA_DEMO_MCP_TOKEN='));
      expect(printed).toBe('');
    });

    it.for<[string, string]>([
      ['empty', ''],
      ['blank', '   '],
      ['two words', 'two words'],
    ])('rejects a MILPA_DEMO_MCP_TOKEN that is %s as bad input, without quoting it', async ([, token]) => {
      const failure = serveDemoMcp({ httpPort: 0 }, quietIo({ MILPA_DEMO_MCP_TOKEN: token }));
      await expect(failure).rejects.toBeInstanceOf(DemoUsageError);
      await expect(failure).rejects.toThrow(/^MILPA_DEMO_MCP_TOKEN (is not set|contains whitespace)/);
      if (token.trim() !== '') await expect(failure).rejects.not.toThrow(token);
    });

    it('reports a port in use as bad input, with a hint', async () => {
      const blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      const { port } = blocker.address() as AddressInfo;
      try {
        const failure = serveDemoMcp({ httpPort: port }, quietIo({ MILPA_DEMO_MCP_TOKEN: TOKEN }));
        await expect(failure).rejects.toBeInstanceOf(DemoUsageError);
        await expect(failure).rejects.toThrow(`port ${port} is already in use`);
      } finally {
        await new Promise((resolve) => blocker.close(resolve));
      }
    });
  });

  describe('confirmation of mutating tools on mcp', () => {
    it('asks a client that supports elicitation with a form and, on accept, creates the note exactly once', async () => {
      const served = await serve();
      const { client, elicitations } = await connect(served.url, TOKEN, { action: 'accept', content: {} });
      const created = await client.callTool({ name: 'create_note', arguments: { title: 'Water the squash', tags: ['elicited'] } });
      expect(elicitations).toHaveLength(1);
      expect(elicitations[0]?.message).toContain("'create_note' needs your confirmation before it runs");
      expect(created.isError).not.toBe(true);
      expect(textOf(created)).toContain('Note #6 created');
      expect(await countTagged(client, 'elicited')).toBe(1);
      // A read runs without asking.
      expect(elicitations).toHaveLength(1);
    });

    it('creates nothing when the person declines the form', async () => {
      const served = await serve();
      const { client, elicitations } = await connect(served.url, TOKEN, { action: 'decline' });
      const declined = await client.callTool({ name: 'create_note', arguments: { title: 'Water the squash', tags: ['declined'] } });
      expect(elicitations).toHaveLength(1);
      expect(declined.isError).toBe(true);
      expect(errorOf(declined).code).toBe('CONFIRMATION_DECLINED');
      expect(await countTagged(client, 'declined')).toBe(0);
    });

    it('gives a client without elicitation a confirm_token, runs nothing before the replay, and runs the replay once', async () => {
      const served = await serve();
      const { client } = await connect(served.url, TOKEN);
      const args = { title: 'Water the squash', tags: ['replayed'] };
      const asked = await client.callTool({ name: 'create_note', arguments: args });
      expect(asked.isError).toBe(true);
      expect(textOf(asked)).toContain('Confirmation required');
      const { code, confirm_token: confirmToken } = errorOf(asked);
      expect(code).toBe('CONFIRMATION_REQUIRED');
      expect(confirmToken).toMatch(/^[0-9a-f]{32}$/);
      expect(await countTagged(client, 'replayed')).toBe(0);

      const replayed = await client.callTool({ name: 'create_note', arguments: { ...args, confirm_token: confirmToken } });
      expect(replayed.isError).not.toBe(true);
      expect(textOf(replayed)).toContain('Note #6 created');
      expect(await countTagged(client, 'replayed')).toBe(1);

      // The token works once.
      const again = await client.callTool({ name: 'create_note', arguments: { ...args, confirm_token: confirmToken } });
      expect(again.isError).toBe(true);
      expect(textOf(again)).toContain('Invalid or expired confirmation token');
      expect(await countTagged(client, 'replayed')).toBe(1);
    });
  });
});
