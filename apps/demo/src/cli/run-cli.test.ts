import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { TerminalApprovalInput } from '@milpa/tool-runtime';
import { InvocationStepKind } from '@milpa/tool-runtime/inspection';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STATE_DIR_ENV } from '../state/demo-state-path.js';
import { runCli } from './run-cli.js';

/** Each test's own state folder, never the shared os.tmpdir()/milpa-demo. */
let historyDir = '';
beforeEach(() => {
  historyDir = mkdtempSync(join(tmpdir(), 'milpa-demo-test-'));
});
afterEach(() => {
  rmSync(historyDir, { recursive: true, force: true });
});

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in process; `stdin` is where `call --approve` reads the operator's answers. */
async function runWithInput(stdin: TerminalApprovalInput | undefined, argv: readonly string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdoutIsTTY: false,
    env: { [STATE_DIR_ENV]: historyDir },
    ...(stdin === undefined ? {} : { stdin }),
  });
  return { code, stdout, stderr };
}

function run(...argv: string[]): Promise<Run> {
  return runWithInput(undefined, argv);
}

/** A fake standard input: an interactive terminal or not, with `typed` already typed into it. */
function terminalInput(isTTY: boolean, typed: string): PassThrough & { isTTY: boolean } {
  const input = Object.assign(new PassThrough({ encoding: 'utf8' }), { isTTY });
  input.write(typed);
  return input;
}

/** The run id that `--run new` printed on stderr. */
function openedRun(result: Run): string {
  const runId = /^run (\S+) opened; pass --run \1 to continue it$/m.exec(result.stderr)?.[1];
  if (runId === undefined) throw new Error(`no run opened: ${result.stderr}`);
  return runId;
}

/** An error printed the CLI's way: exactly `error: …` then `hint: …`, and no stack trace. */
function expectUsageError(result: Run, message: string | RegExp): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(typeof message === 'string' ? `error: ${message}` : message);
  expect(lines[1]).toMatch(/^hint: /);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe('runCli', () => {
  describe('list', () => {
    it('lists every tool with its scopes, mutating flag and confirmation', async () => {
      const result = await run('list');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('12 tools in the demo registry');
      expect(result.stdout).toMatch(/delete_note\s+notes:write\s+yes\s+on telegram\s+Delete a note/);
      expect(result.stdout).toMatch(/list_notes\s+notes:read\s+no\s+no\s+List the saved notes/);
    });

    it('prints the wire listing as JSON with --json', async () => {
      const summaries = JSON.parse((await run('list', '--json')).stdout) as { name: string; inputSchema: unknown }[];
      expect(summaries).toHaveLength(12);
      expect(summaries[0]).toMatchObject({ name: 'list_notes', inputSchema: { type: 'object' } });
    });
  });

  describe('inspect', () => {
    it('lists the stages in the order a call runs them, for every demo tool and channel', async () => {
      const tools = (JSON.parse((await run('list', '--json')).stdout) as { name: string }[]).map((summary) => summary.name);
      expect(tools).toHaveLength(12);
      for (const tool of tools) {
        for (const channel of ['cli', 'mcp', 'web', 'telegram']) {
          const plan = JSON.parse((await run('inspect', tool, '--channel', channel, '--json')).stdout) as { steps: { kind: string }[] };
          expect(
            plan.steps.map((step) => step.kind),
            `${tool} on ${channel}`,
          ).toEqual(InvocationStepKind.inspectionOrder());
        }
      }
    });

    it('prints the whole plan as JSON, with a null actor and the anonymous assumption on mcp', async () => {
      const result = await run('inspect', 'delete_note', '--channel', 'mcp', '--json');
      const plan = JSON.parse(result.stdout) as Record<string, unknown> & { steps: unknown[] };
      expect(Object.keys(plan)).toEqual(['schemaVersion', 'operation', 'channel', 'context', 'assumptions', 'wiring', 'steps']);
      expect(plan.context).toEqual({ actor: null, scopes: [], mode: 'execute' });
      expect(plan.assumptions).toEqual(['anonymous actor; mcp requires auth → authorize would deny']);
      expect(plan.steps).toHaveLength(InvocationStepKind.inspectionOrder().length);
    });

    it('reports the caller given by --actor and every --scope, comma lists included', async () => {
      const result = await run(
        'inspect',
        'publish_report',
        '--channel',
        'web',
        '--actor',
        'u:1',
        '--scope',
        'a,b',
        '--scope',
        'c',
        '--json',
      );
      expect(JSON.parse(result.stdout).context).toEqual({ actor: 'u:1', scopes: ['a', 'b', 'c'], mode: 'execute' });
    });

    it('shows the confirm step as conditional for a mutating tool on telegram', async () => {
      const result = await run('inspect', 'delete_note', '--channel', 'telegram');
      expect(result.stdout).toMatch(/confirm\s+branch\s+conditional\s+yes/);
      expect(result.stdout).toContain('require_confirmation_for_mutating');
    });
  });

  describe('call', () => {
    it('prints the cli-rendered result and exits 0 on success', async () => {
      const result = await run('call', 'list_notes', '--args', '{"page":2}');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Page 2/2 (5 total items)');
    });

    it('calls the built-in tools over the demo workspace: a search, then a page of a file', async () => {
      const search = await run('call', 'code_search', '--args', '{"pattern":"waterNeeded","path":"src"}', '--json');
      expect(search.code).toBe(0);
      const found = JSON.parse(search.stdout) as { data: { matches: { file: string; line: number }[] } };
      expect(found.data.matches.map((match) => `${match.file}:${match.line}`)).toEqual([
        'src/irrigation.ts:4',
        'src/server.ts:2',
        'src/server.ts:5',
      ]);
      const read = await run('call', 'file_read', '--args', '{"path":"src/irrigation.ts","offset":4,"limit":1}', '--json');
      expect(JSON.parse(read.stdout)).toMatchObject({
        success: true,
        data: { content: 'export function waterNeeded(crop: keyof typeof WATER_PER_DAY, area: number): number {\n', next_offset: 5 },
      });
    });

    it('prints the refusal with its code and exits 1 when the pipeline refuses', async () => {
      const result = await run(
        'call',
        'delete_note',
        '--args',
        '{"id":2}',
        '--channel',
        'mcp',
        '--actor',
        'agent:reader',
        '--scope',
        'notes:read',
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toBe(
        "Error: Missing required scope for tool 'delete_note'. Need one of: notes:write — context has: notes:read.\n[FORBIDDEN]\n",
      );
    });

    it('prints the ToolResult JSON with --json', async () => {
      const result = await run('call', 'get_note', '--args', '{"id":4}', '--json', '--request-id', 'req-9');
      const json = JSON.parse(result.stdout);
      expect(Object.keys(json)).toEqual(['success', 'data', 'message', 'error', 'meta']);
      expect(json.meta).toMatchObject({ request_id: 'req-9', channel: 'cli', principal: 'cli', type: 'detail' });
    });

    it('returns the plan without executing with --plan', async () => {
      const result = await run('call', 'delete_note', '--args', '{"id":2}', '--plan', '--json', '--run', 'new');
      expect(JSON.parse(result.stdout).data.plan).toMatchObject({ tool: 'delete_note', mutating: true, args: { id: 2 } });
    });

    it('stops at the confirmation request on telegram, and completes the round trip with --confirm', async () => {
      const caller = ['--channel', 'telegram', '--actor', 'tg:ana', '--scope', 'notes:write', '--run', 'new'];
      const ask = await run('call', 'delete_note', '--args', '{"id":2}', ...caller, '--json');
      expect(JSON.parse(ask.stdout).data).toMatchObject({ requires_confirmation: true, action_summary: 'delete_note(id=2)' });
      const done = await run('call', 'delete_note', '--args', '{"id":2}', ...caller, '--confirm');
      expect(done.code).toBe(0);
      expect(done.stdout).toContain('Confirmation required: delete_note(id=2)');
      expect(done.stdout).toContain("--confirm: replaying 'delete_note' with its confirm_token as tg:ana on telegram");
      expect(done.stdout).toContain('Note #2 deleted');
    });

    it('prints the call’s audit lines on stderr with --audit, secrets redacted', async () => {
      const result = await run('call', 'send_digest', '--args', '{"to":"a@example.com","api_key":"sk-demo-12345678"}', '--audit');
      expect(result.stderr).toMatch(
        /^\[ToolAudit\] .* \| cli \| send_digest \| cli \| \d+ms \| OK \| args=\{"to":"a@example.com","api_key":"\*{3}REDACTED\*{3}"\}\n$/,
      );
    });
  });

  describe('call --run', () => {
    it('allows three deletions in a run opened with --run new and refuses the fourth as too_many_deletions', async () => {
      const first = await run('call', 'delete_note', '--args', '{"id":2}', '--run', 'new');
      expect(first.code).toBe(0);
      expect(first.stdout).toContain('Note #2 deleted');
      const runId = openedRun(first);
      expect(runId).toMatch(/^run_[0-9a-f]{32}$/);
      // Every call is a new process with fresh notes; the run's history is what carries over.
      for (const id of [3, 5]) {
        const next = await run('call', 'delete_note', '--args', `{"id":${id}}`, '--run', runId);
        expect(next.code, next.stdout).toBe(0);
        expect(next.stderr).toBe('');
      }
      const fourth = await run('call', 'delete_note', '--args', '{"id":2}', '--run', runId, '--json');
      expect(fourth.code).toBe(1);
      const json = JSON.parse(fourth.stdout) as { error: string; meta: Record<string, unknown> };
      expect(json.error).toBe(
        "Call to 'delete_note' refused by invocation rule 'notes.max_deletions_per_run' (reason: too_many_deletions).",
      );
      expect(json.meta).toMatchObject({ code: 'FORBIDDEN', rule: 'notes.max_deletions_per_run', reason: 'too_many_deletions' });
    });

    it('keeps counting per run: a second run may delete again', async () => {
      const runId = openedRun(await run('call', 'delete_note', '--args', '{"id":2}', '--run', 'new'));
      for (const id of [3, 5]) await run('call', 'delete_note', '--args', `{"id":${id}}`, '--run', runId);
      const other = await run('call', 'delete_note', '--args', '{"id":2}', '--run', 'new');
      expect(other.code).toBe(0);
      expect(openedRun(other)).not.toBe(runId);
    });

    it('refuses a deletion in a run the store does not know as history_incomplete, with a one-line hint', async () => {
      const result = await run('call', 'delete_note', '--args', '{"id":2}', '--run', 'run_never_opened');
      expect(result.code).toBe(1);
      expect(result.stdout).toBe(
        "✗ Error: Call to 'delete_note' refused by invocation rule 'notes.max_deletions_per_run' " +
          '(reason: history_incomplete).\n[FORBIDDEN]\n',
      );
      expect(result.stderr.trimEnd().split('\n')).toEqual([
        `hint: run 'run_never_opened' was not opened with --run new in ${join(historyDir, 'state.db')} ` +
          '(or its history was forgotten or trimmed), so its history is incomplete: open one with --run new.',
      ]);
    });

    it('refuses a deletion outside any run as history_incomplete and says how to open one', async () => {
      const result = await run('call', 'delete_note', '--args', '{"id":2}');
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('(reason: history_incomplete)');
      expect(result.stderr).toBe(
        'hint: this call belongs to no run, so its history is incomplete: add --run new, then pass the id it prints with --run.\n',
      );
    });

    it("refuses a note outside the caller's folder as outside_folder, in a run or not", async () => {
      const pruner = ['--channel', 'mcp', '--actor', 'agent:pruner', '--scope', 'notes:read,notes:write'];
      const read = await run('call', 'get_note', '--args', '{"id":4}', ...pruner);
      expect(read.code).toBe(1);
      expect(read.stdout).toBe(
        "Error: Call to 'get_note' refused by invocation rule 'notes.own_folder' (reason: outside_folder).\n[FORBIDDEN]\n",
      );
      const deletion = await run('call', 'delete_note', '--args', '{"id":4}', ...pruner, '--run', 'new', '--json');
      expect(JSON.parse(deletion.stdout).meta).toMatchObject({ rule: 'notes.own_folder', reason: 'outside_folder' });
      expect((await run('call', 'get_note', '--args', '{"id":2}', ...pruner)).code).toBe(0); // note 2 is in the shared field folder
      expect(
        (await run('call', 'get_note', '--args', '{"id":4}', '--channel', 'mcp', '--actor', 'agent:storekeeper', '--scope', 'notes:read'))
          .code,
      ).toBe(0);
    });

    it('rejects an empty run id as bad input', async () => {
      expectUsageError(await run('call', 'delete_note', '--args', '{"id":2}', '--run', ' '), '--run needs a run id of 1 to 256 characters');
    });
  });

  describe('call --approve', () => {
    const deletion = ['call', 'delete_note', '--args', '{"id":2}', '--run', 'new', '--approve'];
    const question = 'Approve delete_note({"id":2}) by cli on cli? [y/N] ';

    it('asks on the terminal, showing the tool and its arguments, and runs the call on y', async () => {
      const result = await runWithInput(terminalInput(true, 'y\n'), deletion);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(question);
      expect(result.stdout).toContain('Note #2 deleted');
    });

    it('ends the call as APPROVAL_DENIED and runs nothing on n', async () => {
      const result = await runWithInput(terminalInput(true, 'n\n'), deletion);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(question);
      expect(result.stdout).toBe(
        "✗ Error: Call to 'delete_note' was not approved: The operator answered no at the terminal.\n[APPROVAL_DENIED]\n",
      );
    });

    it('hides a secret argument in the question', async () => {
      const result = await runWithInput(terminalInput(true, 'n\n'), [
        'call',
        'send_digest',
        '--args',
        '{"to":"a@example.com","api_key":"sk-demo-12345678"}',
        '--approve',
      ]);
      expect(result.stderr).toContain('Approve send_digest({"to":"a@example.com","api_key":"***REDACTED***"}) by cli on cli? [y/N] ');
      expect(result.stderr).not.toContain('sk-demo-12345678');
    });

    it.each([
      ['stdin is not a terminal', terminalInput(false, 'y\n')],
      ['there is no stdin at all', undefined],
    ])('denies without asking when %s, saying there is no terminal to ask', async (_label, stdin) => {
      const result = await runWithInput(stdin, deletion);
      expect(result.code).toBe(1);
      expect(result.stderr).not.toContain('[y/N]');
      expect(result.stdout).toBe(
        "✗ Error: Call to 'delete_note' was not approved: " +
          'There is no interactive terminal to ask for approval, so the call is denied.\n[APPROVAL_DENIED]\n',
      );
    });

    it('runs a read without asking', async () => {
      const stdin = terminalInput(true, '');
      stdin.end(); // were it asked, the closed terminal would deny the call
      const result = await runWithInput(stdin, ['call', 'list_notes', '--approve']);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain('Page 1/2 (5 total items)');
    });
  });

  describe('tools', () => {
    it('shows what a small model is offered for a message: profile, budget, each tool offered or left out', async () => {
      const result = await run(
        'tools',
        '--provider',
        'ollama',
        '--model',
        'llama3.1:8b',
        '--message',
        'Delete the note about maize, then email me a digest with send_digest',
      );
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('ollama / llama3.1:8b for cli on cli, scopes *\n');
      expect(result.stdout).toMatch(/profile +minimal\n/);
      expect(result.stdout).toMatch(/descriptions +first line\n/);
      expect(result.stdout).toMatch(/budget +5 tools\n/);
      expect(result.stdout).toMatch(/send_digest +✓ pinned\n/);
      expect(result.stdout).toMatch(/delete_note +✓ pinned\n/);
      expect(result.stdout).toMatch(/resolve_verification +—\n/);
      expect(result.stdout).toContain('5 offered, 2 pinned, 7 left out.');
    });

    it('starts from the tools the caller may call, and says when they fit the budget unranked', async () => {
      const result = await run(
        'tools',
        '--provider',
        'anthropic',
        '--model',
        'claude-sonnet-4',
        '--channel',
        'mcp',
        '--actor',
        'agent:reader',
        '--scope',
        'notes:read',
      );
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('anthropic / claude-sonnet-4 for agent:reader on mcp, scopes notes:read');
      expect(result.stdout).not.toContain('delete_note');
      expect(result.stdout).toContain('3 offered, 0 pinned, 0 left out (within budget: nothing ranked).');
    });

    it("prints the whole answer as JSON with --json, tools in the provider's shape", async () => {
      const result = await run(
        'tools',
        '--provider',
        'anthropic',
        '--model',
        'claude-sonnet-4',
        '--message',
        'email me a digest',
        '--json',
      );
      expect(result.code).toBe(0);
      const turn = JSON.parse(result.stdout) as { names: string[]; profile: string; budget: number; tools: Record<string, unknown>[] };
      expect(turn).toMatchObject({ profile: 'full', budget: 12 });
      expect(turn.names).toContain('send_digest');
      expect(turn.tools.find((tool) => tool['name'] === 'send_digest')).toHaveProperty('input_schema');
    });

    it('says so when the caller may call no tool', async () => {
      const result = await run('tools', '--provider', 'openai', '--model', 'gpt-4o-mini', '--channel', 'mcp');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("No tools: this caller may call none of the demo's tools");
    });

    it('rejects a missing --model and an empty --provider as bad input', async () => {
      expectUsageError(await run('tools', '--provider', 'openai'), "required option '--model <model>' not specified");
      expectUsageError(await run('tools', '--provider', '', '--model', 'gpt-4o-mini'), '--provider must be a non-empty string.');
    });
  });

  describe('bad input', () => {
    it('names an unknown tool and suggests the closest one', async () => {
      const result = await run('call', 'list_note');
      expectUsageError(result, "unknown tool 'list_note'");
      expect(result.stderr).toContain("did you mean 'list_notes'?");
    });

    it('rejects invalid JSON in --args before anything runs', async () => {
      expectUsageError(await run('call', 'list_notes', '--args', '{page:2}'), /^error: invalid JSON in --args: /);
    });

    it('rejects an unknown option, an unknown command and a missing argument', async () => {
      expectUsageError(await run('call', 'list_notes', '--frobnicate'), "unknown option '--frobnicate'");
      expectUsageError(await run('frobnicate'), "unknown command 'frobnicate'");
      expectUsageError(await run('inspect'), "missing required argument 'tool'");
    });

    it('rejects a channel outside cli, mcp, web and telegram', async () => {
      expectUsageError(await run('inspect', 'list_notes', '--channel', 'xmpp'), /Allowed choices are cli, mcp, web, telegram/);
    });

    it('rejects an unknown tool in inspect too', async () => {
      expectUsageError(await run('inspect', 'nope'), "unknown tool 'nope'");
    });
  });

  describe('--help', () => {
    it('prints help for the program and for each command, and exits 0', async () => {
      const root = await run('--help');
      expect(root.code).toBe(0);
      for (const command of ['tour', 'list', 'inspect', 'call', 'tools', 'mcp']) expect(root.stdout).toContain(command);
      for (const command of ['tour', 'list', 'inspect', 'call', 'tools', 'mcp']) {
        const help = await run(command, '--help');
        expect(help.code).toBe(0);
        expect(help.stdout).toContain(`Usage: pnpm demo ${command}`);
      }
    });

    it('documents tools: the profile small models get, examples, and the callers', async () => {
      const help = (await run('tools', '--help')).stdout;
      expect(help).toContain('--provider <provider>');
      expect(help).toContain('--message <text>');
      expect(help).not.toContain('--plan');
      expect(help).toContain('5 tools, first-line descriptions');
      expect(help).toContain('pnpm demo tools --provider ollama --model llama3.1:8b --message "delete the note about maize"');
      expect(help).toContain('cli       ToolContext.cli(): principal "cli", scopes *');
    });

    it('documents the default caller of each channel', async () => {
      const help = (await run('call', '--help')).stdout;
      expect(help).toContain('cli       ToolContext.cli(): principal "cli", scopes *');
      expect(help).toContain('Without --actor the\n            caller is anonymous (never invented)');
    });

    it('documents --run: new opens a run, an unknown one refuses deletions as history_incomplete', async () => {
      const help = (await run('call', '--help')).stdout;
      expect(help).toMatch(/--run <id> +the agent run the call belongs to: 'new' opens one and\n +prints its id; an id continues that run/);
      expect(help).toContain('a run may delete at most 3 notes (notes.max_deletions_per_run)');
      expect(help).toContain('are refused as history_incomplete');
      expect(help).toContain('pnpm demo call delete_note --args \'{"id":2}\' --run new\n');
    });

    it('documents --approve: y/n on the terminal, denied without one', async () => {
      const help = (await run('call', '--help')).stdout;
      expect(help).toMatch(/--approve +ask y\/n on this terminal before a mutating call/);
      expect(help).toContain('anything else ends it as APPROVAL_DENIED');
      expect(help).toContain('nobody can answer, so every mutating call is denied');
      expect(help).toContain('pnpm demo call delete_note --args \'{"id":2}\' --run new --approve\n');
    });
  });
});

describe('runCli state', () => {
  const stateFile = (): string => join(historyDir, 'state.db');

  /** The confirm_token of a telegram deletion asked for with `extra` flags, in a run of its own. */
  async function askToDelete(...extra: string[]): Promise<{ token: string; runId: string }> {
    const asked = await run(
      'call',
      'delete_note',
      '--args',
      '{"id":2}',
      '--channel',
      'telegram',
      '--actor',
      'tg:ana',
      '--scope',
      'notes:write',
      '--run',
      'new',
      '--json',
      ...extra,
    );
    expect(asked.code, asked.stderr).toBe(0);
    const token = (JSON.parse(asked.stdout) as { data: { confirm_token?: string } }).data.confirm_token;
    if (token === undefined) throw new Error(`no confirm_token: ${asked.stdout}`);
    return { token, runId: openedRun(asked) };
  }

  function redeem(token: string, runId: string, ...extra: string[]): Promise<Run> {
    return run(
      'call',
      'delete_note',
      '--args',
      JSON.stringify({ id: 2, confirm_token: token }),
      '--channel',
      'telegram',
      '--actor',
      'tg:ana',
      '--scope',
      'notes:write',
      '--run',
      runId,
      ...extra,
    );
  }

  describe('call', () => {
    it('keeps its state in state.db in the state folder, where the next call finds it', async () => {
      const { token, runId } = await askToDelete();
      expect(existsSync(stateFile())).toBe(true);
      const redeemed = await redeem(token, runId);
      expect(redeemed.code).toBe(0);
      expect(redeemed.stdout).toContain('Note #2 deleted');
      const again = await redeem(token, runId);
      expect(again.code).toBe(1);
      expect(again.stdout).toContain('Invalid or expired confirmation token');
    });

    it('keeps its state in the file --db names instead', async () => {
      const path = join(historyDir, 'elsewhere.db');
      const { token, runId } = await askToDelete('--db', path);
      expect(existsSync(path)).toBe(true);
      expect(existsSync(stateFile())).toBe(false);
      expect((await redeem(token, runId)).stdout).toContain('Invalid or expired confirmation token');
      expect((await redeem(token, runId, '--db', path)).stdout).toContain('Note #2 deleted');
    });

    it('refuses a --db that is a folder, names it, and runs nothing', async () => {
      expectUsageError(
        await run('call', 'list_notes', '--db', historyDir),
        `cannot keep the demo's state in ${historyDir}: it is a folder, not a file`,
      );
    });

    it('refuses a --db file that is not a SQLite database and leaves it as it was', async () => {
      const path = join(historyDir, 'notes.txt');
      writeFileSync(path, 'my notes\n'.repeat(100));
      expectUsageError(
        await run('call', 'list_notes', '--db', path),
        `cannot keep the demo's state in ${path}: the file is not a SQLite database`,
      );
      expect(readFileSync(path, 'utf8')).toBe('my notes\n'.repeat(100));
    });

    it('refuses a --db in a folder that does not exist', async () => {
      const path = join(historyDir, 'missing', 'state.db');
      expectUsageError(
        await run('call', 'list_notes', '--db', path),
        `cannot keep the demo's state in ${path}: the folder ${join(historyDir, 'missing')} does not exist`,
      );
    });

    it('documents --db and what the state holds', async () => {
      const help = (await run('call', '--help')).stdout;
      expect(help).toMatch(/--db <path> +the SQLite file holding the demo's state/);
      expect(help).toContain('<tmp>/milpa-demo/state.db unless --db names another');
      expect(help).toContain('Delete the file to start fresh.');
    });
  });

  describe('tour', () => {
    it('runs twice in a row with the same transcript and leaves no state file behind', async () => {
      const first = await run('tour');
      const second = await run('tour');
      expect([first.code, second.code]).toEqual([0, 0]);
      expect(second.stdout).toBe(first.stdout);
      expect(first.stdout).toContain('State: a fresh SQLite file for this tour, deleted when it ends');
      expect(readdirSync(historyDir)).toEqual([]);
    });

    it('keeps its state in a new --db file, and refuses to start again from it', async () => {
      const path = join(historyDir, 'tour.db');
      const first = await run('tour', '--db', path);
      expect(first.code).toBe(0);
      expect(first.stdout).toContain(`State: ${path}, empty at the start and kept when the tour ends.`);
      expect(existsSync(path)).toBe(true);
      expectUsageError(await run('tour', '--db', path), `the tour starts from an empty state, and ${path} is not empty`);
    });
  });

  describe('mcp', () => {
    it('refuses a --db that cannot hold the state before serving anything', async () => {
      expectUsageError(await run('mcp', '--db', historyDir), `cannot keep the demo's state in ${historyDir}: it is a folder, not a file`);
    });
  });
});
