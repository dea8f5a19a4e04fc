// End to end: every test spawns the demo's CLI as a separate process and reads only its exit status
// and output. The child runs the built JavaScript (`node dist/main.js`, built by tsup from the same
// src/main.ts that `pnpm demo` runs through tsx) against the built packages: no TypeScript loader
// to start, so a loaded machine slows the tests down but cannot time them out.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { MCP_ERROR_META_KEY } from '@milpa/mcp';
import { InvocationStepKind } from '@milpa/tool-runtime/inspection';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { spawnDemo } from './testing/spawn-demo.js';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const NODE_ARGS = [MAIN];

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** This file's own state folder: a child never writes into the shared os.tmpdir()/milpa-demo. */
const HISTORY_DIR = mkdtempSync(join(tmpdir(), 'milpa-demo-e2e-'));

/** The bearer token the HTTP tests hand the server through MILPA_DEMO_MCP_TOKEN. */
const MCP_TOKEN = 'e2e-token-9c41d07b2f6a83e5';

/**
 * The environment of a plain, non-interactive run: no colour forced either way, and no
 * MILPA_DEMO_MCP_TOKEN from the shell that runs the tests unless `extra` sets it.
 */
function childEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, MILPA_DEMO_STATE_DIR: HISTORY_DIR };
  delete env['FORCE_COLOR'];
  delete env['NO_COLOR'];
  delete env['MILPA_DEMO_MCP_TOKEN'];
  return { ...env, ...extra };
}

type CallResult = Awaited<ReturnType<Client['callTool']>>;

/** A client that declares elicitation forms and answers every request with `answer`, recording them. */
function elicitingClient(answer: ElicitResult): { client: Client; elicitations: ElicitRequest['params'][] } {
  const elicitations: ElicitRequest['params'][] = [];
  const client = new Client({ name: 'demo-e2e', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    elicitations.push(request.params);
    return answer;
  });
  return { client, elicitations };
}

function errorOf(result: CallResult): { code?: string; confirm_token?: string } {
  return (result._meta?.[MCP_ERROR_META_KEY] ?? {}) as { code?: string; confirm_token?: string };
}

/** `demo mcp --http 0` as a child process, once it has printed its URL. */
interface HttpServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: URL;
  readonly output: () => { readonly stdout: string; readonly stderr: string };
  readonly exited: Promise<number | null>;
}

function serveHttpChild(): Promise<HttpServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_ARGS, 'mcp', '--http', '0'], {
      cwd: APP_DIR,
      env: childEnv({ MILPA_DEMO_MCP_TOKEN: MCP_TOKEN }),
    });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((settle) => child.on('close', (code) => settle(code)));
    child.on('error', reject);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /(http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (url !== undefined) resolve({ child, url: new URL(url), output: () => ({ stdout, stderr }), exited });
    });
    void exited.then((code) => reject(new Error(`demo mcp --http exited (${String(code)}) before printing its URL:\n${stderr}`)));
  });
}

async function connectHttp(client: Client, url: URL, token: string): Promise<Client> {
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

function demo(...args: string[]): Promise<Run> {
  return spawnDemo(args, childEnv());
}

const STACK_FRAME = /\n\s+at /;

// One process at a time: a 2-core machine gains nothing from more, and each start is cheap.
describe('pnpm demo (spawned)', () => {
  afterAll(() => {
    rmSync(HISTORY_DIR, { recursive: true, force: true });
  });

  beforeAll(() => {
    if (!existsSync(MAIN))
      throw new Error('dist/main.js is missing: run `pnpm turbo run build --filter=@milpa/demo` (pnpm test at the root builds first).');
  });

  it('runs the tour with no arguments: exit 0, nothing on stderr, every key moment', async ({ expect }) => {
    const first = await demo();
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    expect(first.stdout).not.toContain('\u001b['); // a pipe is not a terminal: no colour
    for (const moment of [
      'Milpa tour',
      'Page 1/2 (5 total items)',
      "meta.errors → field 'title': Missing required field: title",
      "channel 'mcp' requires an authenticated principal (require_auth) — none provided.",
      'Need one of: notes:write — context has: notes:read, almanac:read.',
      'Confirmation required: delete_note(id=3)',
      'Note #3 deleted',
      "PLAN MODE: 'create_note' was checked but not executed",
      'Almanac entry for maize (served from cache)',
      'the cache listener has still run twice (twice before)',
      'Tool execution vetoed by an event listener',
      "Rate limit exceeded for 'mcp:agent:scraper:list_notes': max 8 tokens per 60s.",
      'Need one of: verification:resolve — context has: reports:publish.',
      "Report 'q3-harvest' published",
      '"api_key":"***REDACTED***"',
      'anonymous actor; mcp requires auth → authorize would deny',
      "refused by invocation rule 'notes.max_deletions_per_run' (reason: too_many_deletions)",
      "refused by invocation rule 'notes.own_folder' (reason: outside_folder)",
      "Principal 'agent:assistant' opened verification request '‹delete approval›' and cannot grant it.",
      'Note #8 was saved as "Pull up only the squash with mildew", the approved title',
    ]) {
      expect(first.stdout).toContain(moment);
    }
  });

  it('inspect --json prints the whole plan: every step and the anonymous-actor assumption on mcp', async ({ expect }) => {
    const result = await demo('inspect', 'delete_note', '--channel', 'mcp', '--json');
    expect(result.code).toBe(0);
    const plan = JSON.parse(result.stdout) as { schemaVersion: string; context: unknown; assumptions: string[]; steps: { kind: string }[] };
    expect(Object.keys(plan)).toEqual(['schemaVersion', 'operation', 'channel', 'context', 'assumptions', 'wiring', 'steps']);
    expect(plan.schemaVersion).toBe('1.0');
    expect(plan.context).toEqual({ actor: null, scopes: [], mode: 'execute' });
    expect(plan.assumptions).toContain('anonymous actor; mcp requires auth → authorize would deny');
    expect(plan.steps.map((step) => step.kind)).toEqual(InvocationStepKind.inspectionOrder());
    expect(plan.steps.map((step) => step.kind)).toContain('rules');
  });

  it('call exits 0 and prints the rendered result when the call succeeds', async ({ expect }) => {
    const result = await demo('call', 'list_notes', '--args', '{"page":2}');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('#4    Save seed from the best ears');
    expect(result.stdout).toContain('Page 2/2 (5 total items)');
  });

  it('call exits 1 and prints the denial when the pipeline refuses', async ({ expect }) => {
    const result = await demo('call', 'delete_note', '--args', '{"id":2}', '--channel', 'mcp', '--json');
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout) as { success: boolean; error: string; meta: Record<string, unknown> };
    expect(json.success).toBe(false);
    expect(json.error).toBe("channel 'mcp' requires an authenticated principal (require_auth) — none provided.");
    expect(json.meta).toMatchObject({ code: 'FORBIDDEN', principal: null, channel: 'mcp' });
  });

  it('keeps a run across processes: --run new, two more deletions with its id, the fourth refused as too_many_deletions', async ({
    expect,
  }) => {
    const first = await demo('call', 'delete_note', '--args', '{"id":2}', '--run', 'new');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Note #2 deleted');
    const runId = /^run (run_[0-9a-f]{32}) opened; pass --run \1 to continue it$/m.exec(first.stderr)?.[1] ?? '';
    expect(runId).not.toBe('');
    for (const id of [3, 5]) expect((await demo('call', 'delete_note', '--args', `{"id":${id}}`, '--run', runId)).code).toBe(0);
    const fourth = await demo('call', 'delete_note', '--args', '{"id":2}', '--run', runId);
    expect(fourth.code).toBe(1);
    expect(fourth.stdout).toContain("refused by invocation rule 'notes.max_deletions_per_run' (reason: too_many_deletions)");
    expect(fourth.stderr).toBe('');
  });

  it('call --approve denies a mutating call when stdin is not a terminal, and says there is nobody to ask', async ({ expect }) => {
    const result = await demo('call', 'delete_note', '--args', '{"id":2}', '--run', 'new', '--approve', '--json');
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout) as { error: string; meta: Record<string, unknown> };
    expect(json.meta['code']).toBe('APPROVAL_DENIED');
    expect(json.error).toBe(
      "Call to 'delete_note' was not approved: There is no interactive terminal to ask for approval, so the call is denied.",
    );
    expect(result.stderr).not.toContain('[y/N]');
  });

  it(
    'refuses a deletion in an unknown run as history_incomplete with a one-line hint, ' + 'and a note outside the folder as outside_folder',
    async ({ expect }) => {
      const unknown = await demo('call', 'delete_note', '--args', '{"id":2}', '--run', 'run_from_elsewhere');
      expect(unknown.code).toBe(1);
      expect(unknown.stdout).toContain('(reason: history_incomplete)');
      expect(unknown.stderr).toMatch(
        /^hint: run 'run_from_elsewhere' was not opened with --run new in .+, so its history is incomplete: open one with --run new\.\n$/,
      );
      const outside = await demo(
        'call',
        'get_note',
        '--args',
        '{"id":4}',
        '--channel',
        'mcp',
        '--actor',
        'agent:pruner',
        '--scope',
        'notes:read',
        '--json',
      );
      expect(outside.code).toBe(1);
      expect(JSON.parse(outside.stdout).meta).toMatchObject({ rule: 'notes.own_folder', reason: 'outside_folder' });
    },
  );

  it.for<[string, string[], string]>([
    ['an unknown tool', ['call', 'list_note'], "error: unknown tool 'list_note'"],
    ['invalid JSON', ['call', 'list_notes', '--args', '{page:2}'], 'error: invalid JSON in --args: '],
    ['an unknown flag', ['call', 'list_notes', '--frobnicate'], "error: unknown option '--frobnicate'"],
    ['an unknown command', ['frobnicate'], "error: unknown command 'frobnicate'"],
    ['mcp --http without MILPA_DEMO_MCP_TOKEN', ['mcp', '--http', '0'], 'error: MILPA_DEMO_MCP_TOKEN is not set: '],
  ])('prints one error line and a hint, exits 2, and shows no stack trace for %s', async ([, args, message], { expect }) => {
    const result = await demo(...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]?.startsWith(message)).toBe(true);
    expect(lines[1]).toMatch(/^hint: /);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('ends quietly with exit 0 when the reader closes the pipe early, as `pnpm demo | head -1` does', async ({ expect }) => {
    const result = await new Promise<Run>((resolve, reject) => {
      const child = spawn(process.execPath, NODE_ARGS, { cwd: APP_DIR, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stdout.once('data', () => child.stdout.destroy());
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout: '', stderr }));
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('agent prints the AI SDK conversation: a refusal the model reads, an approval request, the approved result', async ({ expect }) => {
    const run = await demo('agent');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('\u001b[');
    for (const moment of [
      "✗ FORBIDDEN Call to 'get_note' refused by invocation rule 'notes.own_folder'",
      '⏸ tool-approval-request for call-3',
      '✓ approve delete_note {"id":3}',
      '✓ ok {"deleted":3,"title":"Squash shades the soil"}',
      'call-2  invocation_denied',
      'call-3  approval_pending → ok',
    ]) {
      expect(run.stdout).toContain(moment);
    }
  });

  it('--help lists the commands and exits 0', async ({ expect }) => {
    const result = await demo('--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: pnpm demo [command] [options]');
    for (const command of ['tour', 'list', 'inspect [options] <tool>', 'call [options] <tool>', 'mcp [options]'])
      expect(result.stdout).toContain(command);
  });

  it('mcp serves the demo registry on stdio, and asks the person before each deletion when the client supports elicitation', async ({
    expect,
  }) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...NODE_ARGS, 'mcp'],
      cwd: APP_DIR,
      env: childEnv() as Record<string, string>,
      stderr: 'pipe',
    });
    const { client, elicitations } = elicitingClient({ action: 'accept', content: {} });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(12);
      expect(tools.find((tool) => tool.name === 'code_search')?.annotations).toMatchObject({ readOnlyHint: true });
      const result = await client.callTool({ name: 'get_note', arguments: { id: 1 } });
      expect(result.isError).not.toBe(true);
      expect(JSON.stringify(result.content)).toContain('Plant the milpa');
      expect(elicitations).toHaveLength(0); // a read runs without asking
      // The stdio session is one run: three deletions, each confirmed once, then the per-run rule refuses.
      for (const id of [2, 3, 5]) {
        const deleted = await client.callTool({ name: 'delete_note', arguments: { id } });
        expect(deleted.isError).not.toBe(true);
        expect(JSON.stringify(deleted.content)).toContain(`Note #${id} deleted`);
      }
      expect(elicitations).toHaveLength(3);
      expect(elicitations[0]?.message).toContain("'delete_note' needs your confirmation before it runs");
      const fourth = await client.callTool({ name: 'delete_note', arguments: { id: 4 } });
      expect(fourth.isError).toBe(true);
      expect(JSON.stringify(fourth.content)).toContain(
        "refused by invocation rule 'notes.max_deletions_per_run' (reason: too_many_deletions)",
      );
      // Refused before the confirmation step: nobody was asked.
      expect(elicitations).toHaveLength(3);
    } finally {
      await client.close();
    }
  });

  it('mcp on stdio gives a client without elicitation a confirm_token, and deletes once on the replay', async ({ expect }) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...NODE_ARGS, 'mcp'],
      cwd: APP_DIR,
      env: childEnv() as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'demo-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      const asked = await client.callTool({ name: 'delete_note', arguments: { id: 2 } });
      expect(asked.isError).toBe(true);
      expect(JSON.stringify(asked.content)).toContain('Confirmation required');
      const { code, confirm_token: confirmToken } = errorOf(asked);
      expect(code).toBe('CONFIRMATION_REQUIRED');
      expect((await client.callTool({ name: 'get_note', arguments: { id: 2 } })).isError).not.toBe(true); // nothing ran yet
      const replayed = await client.callTool({ name: 'delete_note', arguments: { id: 2, confirm_token: confirmToken } });
      expect(replayed.isError).not.toBe(true);
      expect(JSON.stringify(replayed.content)).toContain('Note #2 deleted');
      const gone = await client.callTool({ name: 'get_note', arguments: { id: 2 } });
      expect(JSON.stringify(gone.content)).toContain('No note with id 2.');
      const again = await client.callTool({ name: 'delete_note', arguments: { id: 2, confirm_token: confirmToken } });
      expect(again.isError).toBe(true);
      expect(JSON.stringify(again.content)).toContain('Invalid or expired confirmation token');
    } finally {
      await client.close();
    }
  });

  it(
    'mcp --http takes its token from MILPA_DEMO_MCP_TOKEN, confirms a mutating call either way, ' +
      'refuses a wrong token, and never prints the token',
    async ({ expect }) => {
      const server = await serveHttpChild();
      try {
        expect(server.output().stderr).toContain('Authorization: Bearer <the value of MILPA_DEMO_MCP_TOKEN>');
        await expect(connectHttp(new Client({ name: 'demo-e2e', version: '1.0.0' }), server.url, 'not-the-token')).rejects.toThrow(
          /401|Unknown token|Unauthorized/i,
        );

        // A client with elicitation: one form, and on accept the note is created once.
        const { client: asking, elicitations } = elicitingClient({ action: 'accept', content: {} });
        await connectHttp(asking, server.url, MCP_TOKEN);
        const created = await asking.callTool({ name: 'create_note', arguments: { title: 'Water the squash', tags: ['e2e'] } });
        expect(created.isError).not.toBe(true);
        expect(JSON.stringify(created.content)).toContain('Note #6 created');
        expect(elicitations).toHaveLength(1);
        expect(elicitations[0]?.message).toContain("'create_note' needs your confirmation before it runs");

        // A client without it: the token flow, and the replay creates the note once.
        const plain = await connectHttp(new Client({ name: 'demo-e2e', version: '1.0.0' }), server.url, MCP_TOKEN);
        const asked = await plain.callTool({ name: 'create_note', arguments: { title: 'Turn the compost', tags: ['e2e'] } });
        expect(errorOf(asked).code).toBe('CONFIRMATION_REQUIRED');
        const replayed = await plain.callTool({
          name: 'create_note',
          arguments: { title: 'Turn the compost', tags: ['e2e'], confirm_token: errorOf(asked).confirm_token },
        });
        expect(JSON.stringify(replayed.content)).toContain('Note #7 created');
        const listed = await plain.callTool({ name: 'list_notes', arguments: { tag: 'e2e' } });
        expect(JSON.stringify(listed.content).match(/#\d+: /g)).toHaveLength(2);
        await Promise.all([asking.close(), plain.close()]);
      } finally {
        server.child.kill('SIGTERM');
      }
      expect(await server.exited).toBe(0);
      const { stdout, stderr } = server.output();
      expect(stderr).toContain('| mcp | create_note | agent:mcp-client |');
      expect(stdout).toBe('');
      expect(stderr).not.toContain(MCP_TOKEN);
    },
  );

  it('mcp refuses --token without echoing its value: a token on the command line would show in ps', async ({ expect }) => {
    const result = await demo('mcp', '--http', '0', '--token', 'argv-secret-3d9e');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: --token is not accepted: .+\nhint: put the token in MILPA_DEMO_MCP_TOKEN instead; .+\n$/);
    expect(result.stderr).not.toContain('argv-secret-3d9e');
  });
});
