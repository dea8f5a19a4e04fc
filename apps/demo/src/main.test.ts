// End to end: every test spawns the demo's CLI as a separate process and reads only its exit status
// and output. The child runs the built JavaScript (`node dist/main.js`, built by tsup from the same
// src/main.ts that `pnpm demo` runs through tsx) against the built packages: no TypeScript loader
// to start, so a loaded machine slows the tests down but cannot time them out.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InvocationStepKind } from '@milpa/tool-runtime';
import { afterAll, beforeAll, describe, it } from 'vitest';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const NODE_ARGS = [MAIN];

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** This file's own run files: a child never writes into the shared os.tmpdir()/milpa-demo. */
const HISTORY_DIR = mkdtempSync(join(tmpdir(), 'milpa-demo-e2e-'));

/** The environment of a plain, non-interactive run: no colour forced either way. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, MILPA_DEMO_HISTORY_DIR: HISTORY_DIR };
  delete env['FORCE_COLOR'];
  delete env['NO_COLOR'];
  return env;
}

function demo(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_ARGS, ...args], { cwd: APP_DIR, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const STACK_FRAME = /\n\s+at /;

// One process at a time: a 2-core machine gains nothing from more, and each start is cheap.
describe('pnpm demo (spawned)', () => {
  afterAll(() => {
    rmSync(HISTORY_DIR, { recursive: true, force: true });
  });

  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error('dist/main.js is missing: run `pnpm turbo run build --filter=@milpa/demo` (pnpm test at the root builds first).');
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
      "Need one of: notes:write — context has: notes:read, almanac:read.",
      'Confirmation required: delete_note(id=3)',
      'Note #3 deleted',
      "PLAN MODE: 'create_note' was checked but not executed",
      'Almanac entry for maize (served from cache)',
      'the cache listener has still run twice (twice before)',
      'Tool execution vetoed by an event listener',
      "Rate limit exceeded for 'mcp:agent:scraper:list_notes': max 8 tokens per 60s.",
      "Need one of: verification:resolve — context has: reports:publish.",
      "Report 'q3-harvest' published",
      '"api_key":"***REDACTED***"',
      'anonymous actor; mcp requires auth → authorize would deny',
      "refused by invocation rule 'notes.max_deletions_per_run' (reason: too_many_deletions)",
      "refused by invocation rule 'notes.own_folder' (reason: outside_folder)",
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

  it('keeps a run across processes: --run new, two more deletions with its id, the fourth refused as too_many_deletions', async ({ expect }) => {
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

  it('refuses a deletion in an unknown run as history_incomplete with a one-line hint, and a note outside the folder as outside_folder', async ({ expect }) => {
    const unknown = await demo('call', 'delete_note', '--args', '{"id":2}', '--run', 'run_from_elsewhere');
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain('(reason: history_incomplete)');
    expect(unknown.stderr).toMatch(/^hint: run 'run_from_elsewhere' was not opened with --run new in .+, so its history is incomplete: open one with --run new\.\n$/);
    const outside = await demo('call', 'get_note', '--args', '{"id":4}', '--channel', 'mcp', '--actor', 'agent:pruner', '--scope', 'notes:read', '--json');
    expect(outside.code).toBe(1);
    expect(JSON.parse(outside.stdout).meta).toMatchObject({ rule: 'notes.own_folder', reason: 'outside_folder' });
  });

  it.for<[string, string[], string]>([
    ['an unknown tool', ['call', 'list_note'], "error: unknown tool 'list_note'"],
    ['invalid JSON', ['call', 'list_notes', '--args', '{page:2}'], 'error: invalid JSON in --args: '],
    ['an unknown flag', ['call', 'list_notes', '--frobnicate'], "error: unknown option '--frobnicate'"],
    ['an unknown command', ['frobnicate'], "error: unknown command 'frobnicate'"],
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

  it('--help lists the commands and exits 0', async ({ expect }) => {
    const result = await demo('--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: pnpm demo [command] [options]');
    for (const command of ['tour', 'list', 'inspect [options] <tool>', 'call [options] <tool>', 'mcp [options]']) expect(result.stdout).toContain(command);
  });

  it('mcp serves the demo registry on stdio to an MCP client that launches it', async ({ expect }) => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [...NODE_ARGS, 'mcp'], cwd: APP_DIR, env: childEnv() as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'demo-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(9);
      const result = await client.callTool({ name: 'get_note', arguments: { id: 1 } });
      expect(result.isError).not.toBe(true);
      expect(JSON.stringify(result.content)).toContain('Plant the milpa');
      // The stdio session is one run: three deletions, then the per-run rule refuses.
      for (const id of [2, 3, 5]) expect((await client.callTool({ name: 'delete_note', arguments: { id } })).isError).not.toBe(true);
      const fourth = await client.callTool({ name: 'delete_note', arguments: { id: 4 } });
      expect(fourth.isError).toBe(true);
      expect(JSON.stringify(fourth.content)).toContain("refused by invocation rule 'notes.max_deletions_per_run' (reason: too_many_deletions)");
    } finally {
      await client.close();
    }
  });
});
