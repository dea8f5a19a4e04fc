import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ToolContext,
  type ToolResult,
  mutabilityOf,
  unsupportedCaller,
  type RateLimiter,
  type ToolDefinition,
  type ToolInvocation,
} from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Workspace } from '../../sandbox/workspace.js';
import { DEFAULT_SHELL_ALLOWLIST } from './shell-command-lists.js';
import { shellExecTool, type ShellExecResult, type ShellExecToolOptions } from './shell-exec-tool.js';

let root: string;
let workspace: Workspace;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'milpa-shell-exec-')));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.ts'), 'one\ntwo\nthree\n');
  writeFileSync(join(root, 'my file.txt'), 'x\n');
  workspace = Workspace.at(root);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function invocation(signal: AbortSignal = new AbortController().signal): ToolInvocation {
  return { context: ToolContext.cli(), signal, caller: unsupportedCaller };
}

function tool(options: Partial<ShellExecToolOptions> = {}): ToolDefinition<{ command: string }> {
  return shellExecTool({ workspace, ...options });
}

async function run(
  definition: ToolDefinition<{ command: string }>,
  command: string,
  signal?: AbortSignal,
): Promise<ToolResult<ShellExecResult>> {
  return (await definition.handler({ command }, invocation(signal))) as ToolResult<ShellExecResult>;
}

describe('shellExecTool', () => {
  describe('construction', () => {
    it('throws BLOCKED_COMMAND_ALLOWED naming every blocked program on the allowlist', () => {
      expect(() => tool({ allowlist: ['ls', 'rm', 'bash', 'python3.12'] })).toThrow(
        /names rm, bash, python3\.12, which shell_exec never runs/,
      );
      expect(() => tool({ allowlist: ['RM'] })).toThrow(expect.objectContaining({ code: 'BLOCKED_COMMAND_ALLOWED' }));
    });

    it('throws INVALID_ARGUMENT without a workspace, for a path on the allowlist, or bad limits', () => {
      expect(() => shellExecTool({} as ShellExecToolOptions)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
      expect(() => tool({ allowlist: ['/bin/ls'] })).toThrow(/bare program names/);
      expect(() => tool({ allowlist: [] })).toThrow(/at least one program/);
      expect(() => tool({ timeoutMs: 0 })).toThrow(/timeoutMs/);
      expect(() => tool({ maxStdoutBytes: 11 * 1024 * 1024 })).toThrow(/maxStdoutBytes/);
    });

    it('describes the allowed programs and says there are no pipes or redirection', () => {
      const definition = tool();
      expect(definition.name).toBe('shell_exec');
      for (const program of DEFAULT_SHELL_ALLOWLIST) expect(definition.description).toContain(program);
      expect(definition.description).toMatch(/No pipes, redirection/);
      expect(definition.scopes).toEqual(['shell:exec']);
      expect(definition.routing?.intents).toContain('run');
      expect(definition.routing?.examples.length).toBeGreaterThan(0);
    });
  });

  describe('allowlist', () => {
    it('runs an allowlisted program in the workspace', async () => {
      const result = await run(tool(), 'ls -1 src');
      expect(result.success).toBe(true);
      expect(result.data).toMatchObject({ exit_code: 0, stdout: 'a.ts\n', stderr: '', truncated: false });
      expect(result.data.duration_ms).toEqual(expect.any(Number));
      expect(result.data.output_path).toBeUndefined();
    });

    it('runs with the workspace root as working folder', async () => {
      const result = await run(tool(), 'pwd');
      expect(result.data.stdout).toBe(`${root}\n`);
    });

    it('refuses a program not on the allowlist with COMMAND_NOT_ALLOWED', async () => {
      const result = await run(tool(), 'cat src/a.ts');
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('COMMAND_NOT_ALLOWED');
      expect(result.error).toMatch(/Allowed programs: ls, pwd/);
    });

    it('refuses a blocked program with COMMAND_BLOCKED, before the allowlist is consulted', async () => {
      for (const command of ['rm -rf src', 'bash -c ls', 'env', 'find . -exec ls', 'sudo ls', 'curl example.com', 'Python3 x']) {
        const result = await run(tool(), command);
        expect(result.meta['code'], command).toBe('COMMAND_BLOCKED');
      }
    });

    it('refuses a program given as a path with PROGRAM_NOT_BARE', async () => {
      expect((await run(tool(), '/bin/ls')).meta['code']).toBe('PROGRAM_NOT_BARE');
      expect((await run(tool(), './ls')).meta['code']).toBe('PROGRAM_NOT_BARE');
    });

    it('refuses an allowlisted program that is not installed with PROGRAM_NOT_FOUND', async () => {
      expect((await run(tool({ allowlist: ['no-such-program-x'] }), 'no-such-program-x')).meta['code']).toBe('PROGRAM_NOT_FOUND');
    });

    it('never runs a program from the workspace, even with a relative or workspace PATH entry', async () => {
      writeFileSync(join(root, 'whoami'), '#!/bin/sh\necho pwned\n', { mode: 0o755 });
      mkdirSync(join(root, 'bin'), { recursive: true });
      writeFileSync(join(root, 'bin', 'whoami'), '#!/bin/sh\necho pwned\n', { mode: 0o755 });
      try {
        const definition = tool({ env: { PATH: `:.:bin:${root}/bin:/usr/bin:/bin`, LANG: 'C' } });
        const result = await run(definition, 'whoami');
        expect(result.success).toBe(true);
        expect(result.data.stdout).not.toContain('pwned');
      } finally {
        rmSync(join(root, 'whoami'));
        rmSync(join(root, 'bin'), { recursive: true });
      }
    });
  });

  describe('refusals reach the caller as results', () => {
    it.each([
      ['ls; whoami', 'SHELL_METACHARACTER'],
      ['ls $(whoami)', 'SHELL_METACHARACTER'],
      ['ls | wc', 'SHELL_METACHARACTER'],
      ['ls /etc', 'PATH_OUTSIDE_WORKSPACE'],
      ['ls ../', 'PATH_OUTSIDE_WORKSPACE'],
      ['ls -R /', 'PATH_OUTSIDE_WORKSPACE'],
      ['wc --files0-from=/etc/passwd', 'PATH_OUTSIDE_WORKSPACE'],
      ['date -f /etc/shadow', 'PATH_OUTSIDE_WORKSPACE'],
      ['hostname -F name.txt', 'ARGUMENT_NOT_ALLOWED'],
      ['date -s 2000-01-01', 'ARGUMENT_NOT_ALLOWED'],
    ])('refuses %s with %s', async (command, code) => {
      const result = await run(tool(), command);
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe(code);
    });

    it('refuses unknown arguments with UNKNOWN_ARGUMENT', async () => {
      const result = (await tool().handler({ command: 'ls', cwd: '/' } as { command: string }, invocation())) as ToolResult;
      expect(result.meta['code']).toBe('UNKNOWN_ARGUMENT');
    });
  });

  describe('no shell', () => {
    it('passes quoted arguments literally, which a shell given the joined string would not', async () => {
      // Through `sh -c "echo it's  a"` this would be a syntax error (an open quote); spawned directly it is one argument.
      const result = await run(tool({ allowlist: ['echo'] }), `echo "it's  two spaces" 'say "hi"'`);
      expect(result.data.stdout).toBe(`it's  two spaces say "hi"\n`);
    });

    it('finds a file whose name has a space through quotes', async () => {
      const result = await run(tool(), 'ls "my file.txt"');
      expect(result.data).toMatchObject({ exit_code: 0, stdout: 'my file.txt\n' });
    });

    it('refuses substitution inside quotes rather than running it', async () => {
      const result = await run(tool({ allowlist: ['echo'] }), `echo '$(whoami)'`);
      expect(result.meta['code']).toBe('SHELL_METACHARACTER');
    });
  });

  describe('exit codes', () => {
    it('returns a non-zero exit as a success carrying exit_code and stderr, with a warning', async () => {
      const result = await run(tool(), 'ls missing-folder');
      expect(result.success).toBe(true);
      expect(result.data.exit_code).not.toBe(0);
      expect(result.data.stderr).toMatch(/missing-folder/);
      expect(result.meta['warnings']).toEqual([expect.stringMatching(/exited with code \d+; see stderr/)]);
    });
  });

  describe('timeout and abort', () => {
    it('stops a command that overruns the timeout with COMMAND_TIMEOUT', async () => {
      const started = Date.now();
      const result = await run(tool({ allowlist: ['sleep'], timeoutMs: 300 }), 'sleep 30');
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('COMMAND_TIMEOUT');
      expect(result.meta['timeout_ms']).toBe(300);
      expect(Date.now() - started).toBeLessThan(20_000);
    });

    it('stops a command when the call is aborted with COMMAND_ABORTED', async () => {
      const controller = new AbortController();
      const started = Date.now();
      const pending = run(tool({ allowlist: ['sleep'], timeoutMs: 60_000 }), 'sleep 30', controller.signal);
      setTimeout(() => controller.abort(), 200);
      const result = await pending;
      expect(result.meta['code']).toBe('COMMAND_ABORTED');
      expect(Date.now() - started).toBeLessThan(20_000);
    });

    it('does not start a command when the call is already aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      const started = Date.now();
      const result = await run(tool({ allowlist: ['sleep'], timeoutMs: 60_000 }), 'sleep 30', controller.signal);
      expect(result.meta['code']).toBe('COMMAND_ABORTED');
      expect(Date.now() - started).toBeLessThan(20_000);
    });
  });

  describe('output', () => {
    it('cuts stdout over the cap and keeps the full output in a private temp file', async () => {
      const result = await run(tool({ allowlist: ['seq'] }), 'seq 1 100000');
      expect(result.success).toBe(true);
      expect(result.data.truncated).toBe(true);
      expect(Buffer.byteLength(result.data.stdout)).toBeLessThanOrEqual(8192);
      expect(result.data.stdout.startsWith('1\n2\n3\n')).toBe(true);
      const path = result.data.output_path as string;
      expect(path.startsWith(realpathSync(tmpdir())) || path.startsWith(tmpdir())).toBe(true);
      const full = readFileSync(path, 'utf8');
      expect(full.split('\n').length).toBe(100_001);
      expect(full.endsWith('99999\n100000\n')).toBe(true);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(result.meta['warnings']).toEqual([expect.stringContaining(path)]);
      rmSync(join(path, '..'), { recursive: true, force: true });
    });

    it('honours a smaller stdout cap', async () => {
      const result = await run(tool({ allowlist: ['seq'], maxStdoutBytes: 10 }), 'seq 1 10');
      expect(result.data.stdout).toBe('1\n2\n3\n4\n5\n');
      expect(result.data.truncated).toBe(true);
      expect(readFileSync(result.data.output_path as string, 'utf8')).toBe('1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n');
      rmSync(join(result.data.output_path as string, '..'), { recursive: true, force: true });
    });

    it('keeps the full stderr in the temp file when only stderr was cut', async () => {
      const result = await run(tool({ maxStderrBytes: 20 }), 'ls missing-one missing-two missing-three');
      expect(result.data.stdout).toBe('');
      expect(result.data.truncated).toBe(true);
      expect(Buffer.byteLength(result.data.stderr)).toBeLessThanOrEqual(20);
      expect(readFileSync(result.data.output_path as string, 'utf8')).toMatch(/missing-three/);
      rmSync(join(result.data.output_path as string, '..'), { recursive: true, force: true });
    });

    it('stops a command that writes more than 10 MiB with OUTPUT_LIMIT_EXCEEDED', async () => {
      const result = (await run(tool({ allowlist: ['seq'], timeoutMs: 60_000 }), 'seq 1 100000000')) as ToolResult;
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('OUTPUT_LIMIT_EXCEEDED');
      const path = result.meta['output_path'] as string;
      expect(statSync(path).size).toBeLessThanOrEqual(10 * 1024 * 1024);
      expect(statSync(path).size).toBeGreaterThan(10 * 1024 * 1024 - 16);
      rmSync(join(path, '..'), { recursive: true, force: true });
    });

    it('strips ANSI escape sequences from the output', async () => {
      const result = await run(tool(), 'ls --color=always');
      expect(result.data.stdout).toContain('src');
      expect(result.data.stdout).not.toMatch(/\u001b/);
    });
  });

  describe('environment', () => {
    it("gives the command PATH, LANG and its run marker only, never the host's variables", async () => {
      process.env['SECRET_TOKEN'] = 'hunter2-shell-exec';
      try {
        const result = await run(tool({ allowlist: ['printenv'] }), 'printenv');
        const names = result.data.stdout
          .trim()
          .split('\n')
          .map((line) => line.split('=')[0]);
        expect(names.sort()).toEqual(['LANG', 'MILPA_SHELL_RUN', 'PATH']);
        expect(result.data.stdout).toMatch(/^MILPA_SHELL_RUN=[0-9a-f-]{36}$/m);
        expect(result.data.stdout).not.toContain('hunter2');
      } finally {
        delete process.env['SECRET_TOKEN'];
      }
    });

    it('uses the environment the tool is given instead', async () => {
      const result = await run(tool({ allowlist: ['printenv'], env: { PATH: '/usr/bin:/bin', GREETING: 'hello' } }), 'printenv GREETING');
      expect(result.data.stdout).toBe('hello\n');
    });
  });

  describe('through a ToolRegistry', () => {
    it('runs for a caller with the shell:exec scope and refuses one without it', async () => {
      const registry = new ToolRegistry();
      registry.register(tool());
      const allowed = await registry.call('shell_exec', { command: 'ls src' }, ToolContext.mcp('req-1', 'agent:a', ['shell:exec']));
      expect(allowed.success).toBe(true);
      expect((allowed.data as ShellExecResult).stdout).toBe('a.ts\n');

      const denied = await registry.call('shell_exec', { command: 'ls src' }, ToolContext.mcp('req-2', 'agent:b', ['files:read']));
      expect(denied.success).toBe(false);
      expect(denied.meta['code']).toBe('FORBIDDEN');
      expect(denied.data).toBeNull();
    });

    it('returns refusals as results through the pipeline', async () => {
      const registry = new ToolRegistry();
      registry.register(tool());
      const result = await registry.call('shell_exec', { command: 'ls && rm -rf /' }, ToolContext.cli());
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('SHELL_METACHARACTER');
    });

    it('is mutating per call: a read-only program runs on a channel that blocks mutating tools, touch is refused there', async () => {
      const registry = new ToolRegistry({ channelPolicies: { kiosk: { allow_all: false, block_mutating: true } } });
      const definition = tool({ allowlist: ['ls', 'touch'] });
      registry.register(definition);
      expect(mutabilityOf(definition)).toBe('depends_on_arguments');
      const kiosk = new ToolContext({ principal: 'k', channel: 'kiosk', scopes: ['shell:exec'] });

      const listed = await registry.call('shell_exec', { command: 'ls src' }, kiosk);
      expect(listed.success).toBe(true);
      const touched = await registry.call('shell_exec', { command: 'touch created.txt' }, kiosk);
      expect(touched.meta['code']).toBe('FORBIDDEN');
      expect(touched.error).toMatch(/its arguments make it mutating/);
      expect(existsSync(join(root, 'created.txt'))).toBe(false);
    });

    it('charges the mutating rate cost only to calls whose program is not read-only', async () => {
      const costs: number[] = [];
      const rateLimiter = { consume: (_key: string, cost: number) => (costs.push(cost), { allowed: true }) } as unknown as RateLimiter;
      const registry = new ToolRegistry({ rateLimiter, rateLimit: { cost: 1, mutatingCost: 5 } });
      registry.register(tool({ allowlist: ['wc', 'touch'] }));
      await registry.call('shell_exec', { command: 'wc -l src/a.ts' }, ToolContext.cli());
      await registry.call('shell_exec', { command: 'touch src/b.txt' }, ToolContext.cli());
      expect(costs).toEqual([1, 5]);
      rmSync(join(root, 'src', 'b.txt'), { force: true });
    });
  });
});
