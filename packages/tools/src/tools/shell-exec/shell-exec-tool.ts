import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MilpaError, Type, type ToolDefinition } from '@milpa/core';
import { rejectUnknownArguments } from '../../lifecycle/argument-checks.js';
import { defineLifecycleTool } from '../../lifecycle/define-lifecycle-tool.js';
import { failure, success } from '../../lifecycle/tool-envelope.js';
import { ToolError } from '../../lifecycle/tool-error.js';
import { Workspace } from '../../sandbox/workspace.js';
import { checkShellArguments } from './check-shell-arguments.js';
import { cleanShellOutput } from './clean-shell-output.js';
import { isShellCommandMutating } from './is-shell-command-mutating.js';
import { resolveShellProgram } from './resolve-shell-program.js';
import { runShellProcess, type ShellProcessOutcome } from './run-shell-process.js';
import { DEFAULT_SHELL_ALLOWLIST, isShellCommandBlocked } from './shell-command-lists.js';
import { MAX_SHELL_COMMAND_LENGTH, tokenizeShellCommand } from './tokenize-shell-command.js';

/** The most output `shell_exec` reads from one command (stdout and stderr together): 10 MiB. */
export const MAX_SHELL_OUTPUT_BYTES = 10 * 1024 * 1024;

/** The environment a command gets when the tool is given none: a fixed `PATH` and `LANG`, nothing of the host's. */
export const DEFAULT_SHELL_ENV: Readonly<Record<string, string>> = Object.freeze({
  PATH: '/usr/local/bin:/usr/bin:/bin',
  LANG: 'C.UTF-8',
});

const KILL_GRACE_MS = 500;
const PROGRAM_NAME = /^[A-Za-z0-9_+][A-Za-z0-9._+-]*$/;

/** Options of {@link shellExecTool}. */
export interface ShellExecToolOptions {
  /** The folder commands run in (their working folder); relative paths in arguments are inside it. */
  readonly workspace: Workspace;
  /** Bare names of the programs that may run; default {@link DEFAULT_SHELL_ALLOWLIST}. A blocked program here throws. */
  readonly allowlist?: readonly string[];
  /** Stop a command after this many milliseconds (SIGTERM, then SIGKILL); default 5000. */
  readonly timeoutMs?: number;
  /** Bytes of stdout the result carries before it is cut; default 8192. */
  readonly maxStdoutBytes?: number;
  /** Bytes of stderr the result carries before it is cut; default 10000. */
  readonly maxStderrBytes?: number;
  /** Scopes of which the caller needs one; default `['shell:exec']`. */
  readonly scopes?: readonly string[];
  /**
   * The whole environment of every command; default {@link DEFAULT_SHELL_ENV}. Never the host's:
   * pass only what the programs need. Its `PATH` is where programs are looked up.
   */
  readonly env?: Readonly<Record<string, string>>;
}

/** The data of a successful `shell_exec` result (the command ran to its end, whatever its exit code). */
export interface ShellExecResult {
  /** The exit code; non-zero means the program reported a failure (read `stderr`); null when a signal ended it. */
  readonly exit_code: number | null;
  /** Standard output, cleaned (no ANSI escapes or control characters), cut at `maxStdoutBytes`. */
  readonly stdout: string;
  /** Standard error, cleaned, cut at `maxStderrBytes`. */
  readonly stderr: string;
  /** True when stdout or stderr was cut. */
  readonly truncated: boolean;
  /** A file (mode 0600) with the full cleaned stream that was cut: stdout when it was, else stderr. */
  readonly output_path?: string;
  /** How long the command ran, in milliseconds. */
  readonly duration_ms: number;
}

interface PlannedCommand {
  readonly program: string;
  readonly args: readonly string[];
  readonly executable: string;
}

function positiveInteger(name: string, value: number | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new MilpaError(`shellExecTool: ${name} must be a whole number from 1 to ${max}, got ${String(value)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return value;
}

function checkAllowlist(allowlist: readonly string[]): readonly string[] {
  if (!Array.isArray(allowlist) || allowlist.length === 0) {
    throw new MilpaError('shellExecTool: allowlist must name at least one program.', { code: 'INVALID_ARGUMENT' });
  }
  const malformed = allowlist.filter((name) => typeof name !== 'string' || !PROGRAM_NAME.test(name));
  if (malformed.length > 0) {
    throw new MilpaError(
      `shellExecTool: allowlist entries must be bare program names, got ${malformed.map((name) => JSON.stringify(name)).join(', ')}.`,
      {
        code: 'INVALID_ARGUMENT',
      },
    );
  }
  const blocked = allowlist.filter((name) => isShellCommandBlocked(name));
  if (blocked.length > 0) {
    throw new MilpaError(
      `shellExecTool: the allowlist names ${blocked.join(', ')}, which shell_exec never runs ` +
        '(they delete, change permissions, reach the network, or run other programs).',
      { code: 'BLOCKED_COMMAND_ALLOWED' },
    );
  }
  return Object.freeze([...new Set(allowlist)]);
}

function checkEnv(env: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  if (typeof env !== 'object' || env === null || Object.entries(env).some(([, value]) => typeof value !== 'string')) {
    throw new MilpaError('shellExecTool: env must map names to string values.', { code: 'INVALID_ARGUMENT' });
  }
  return Object.freeze({ ...env });
}

/** The first `maxBytes` bytes of `text`, never ending inside a character. */
function cutUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  return bytes
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
}

async function writeFullOutput(text: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'milpa-shell-'));
  const path = join(folder, 'output.txt');
  await writeFile(path, text, { mode: 0o600, flag: 'wx' });
  return path;
}

function describeCommand(allowlist: readonly string[], timeoutMs: number, maxStdoutBytes: number): string {
  return [
    `Run one program in the workspace folder, directly and without a shell. Allowed programs: ${allowlist.join(', ')}.`,
    'Give the program and its arguments as one string, e.g. "ls -la src"; quote an argument with spaces ("my folder").',
    'No pipes, redirection, chaining, variables, globs or substitution: ; & | $ ` > < ( ) { } * ? [ ] ~ ! # and backslashes are refused.',
    "Paths are relative to the workspace: no absolute paths and no '..'. Only options known to be safe are accepted.",
    `A command runs at most ${timeoutMs} ms; stdout over ${maxStdoutBytes} bytes is cut and the full output saved to output_path.`,
    'A non-zero exit_code is reported with stderr, not as an error.',
  ].join(' ');
}

/**
 * The `shell_exec` tool: runs one allowlisted program in the workspace, spawned directly (no shell),
 * with a minimal environment, a timeout and output caps.
 *
 * - The command is split by {@link tokenizeShellCommand}; shell metacharacters are refused, never escaped.
 * - The program must be a bare name on the allowlist and not on {@link SHELL_BLOCKED_COMMANDS}
 *   (`COMMAND_BLOCKED` beats the allowlist; naming a blocked program in the allowlist throws here).
 * - Arguments must not hold absolute paths or `..`; the default and read-only programs follow option
 *   allowlists, and their path operands are resolved inside the workspace and checked against the
 *   sensitive-file lists.
 * - The program is looked up on the environment's `PATH` (absolute folders outside the workspace only).
 * - A non-zero exit is a success result carrying `exit_code` and `stderr` plus a warning; a timeout
 *   (`COMMAND_TIMEOUT`), an abort (`COMMAND_ABORTED`) or output beyond 10 MiB
 *   (`OUTPUT_LIMIT_EXCEEDED`) stops the process and is a failure whose meta carries what was read.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for a missing workspace or bad limits, `BLOCKED_COMMAND_ALLOWED`
 *   when the allowlist names a blocked program.
 *
 * @example
 * registry.register(shellExecTool({ workspace: Workspace.at('/srv/project'), allowlist: ['ls', 'wc', 'cat'] }));
 * await registry.call('shell_exec', { command: 'wc -l README.md' }, context);
 */
export function shellExecTool(options: ShellExecToolOptions): ToolDefinition<{ command: string }> {
  if (!(options?.workspace instanceof Workspace)) {
    throw new MilpaError('shellExecTool: workspace must be a Workspace (Workspace.at(folder)): commands run nowhere else.', {
      code: 'INVALID_ARGUMENT',
    });
  }
  const workspace = options.workspace;
  const allowlist = checkAllowlist(options.allowlist ?? DEFAULT_SHELL_ALLOWLIST);
  const allowed = new Set(allowlist);
  const timeoutMs = positiveInteger('timeoutMs', options.timeoutMs, 5000);
  const maxStdoutBytes = positiveInteger('maxStdoutBytes', options.maxStdoutBytes, 8192, MAX_SHELL_OUTPUT_BYTES);
  const maxStderrBytes = positiveInteger('maxStderrBytes', options.maxStderrBytes, 10_000, MAX_SHELL_OUTPUT_BYTES);
  const env = checkEnv(options.env ?? DEFAULT_SHELL_ENV);
  const searchPath = env['PATH'] ?? DEFAULT_SHELL_ENV['PATH'] ?? '';

  const input = Type.Object(
    {
      command: Type.String({
        minLength: 1,
        maxLength: MAX_SHELL_COMMAND_LENGTH,
        description: 'The program and its arguments, e.g. "ls -la src". No pipes, redirection or other shell syntax.',
      }),
    },
    { additionalProperties: false },
  );

  return defineLifecycleTool<typeof input, PlannedCommand, ShellProcessOutcome>({
    name: 'shell_exec',
    title: 'Run a command',
    description: describeCommand(allowlist, timeoutMs, maxStdoutBytes),
    input,
    scopes: options.scopes ?? ['shell:exec'],
    // A call is read-only only when its program is on SHELL_READ_ONLY_COMMANDS: approval and rate cost follow.
    mutating: isShellCommandMutating,
    // The registry's deadline stays well behind the tool's own, so a slow command ends as COMMAND_TIMEOUT.
    timeoutMs: Math.max(30_000, timeoutMs + KILL_GRACE_MS + 10_000),
    routing: {
      intents: ['run', 'execute', 'list', 'count', 'inspect'],
      domains: ['shell', 'system', 'files'],
      tags: ['shell', 'command', 'terminal', 'sandboxed', 'allowlist'],
      examples: [
        'list the files in src with their sizes',
        'how much disk space is free',
        'count the lines of README.md',
        'what time is it on the server',
      ],
    },

    plan: async (args) => {
      const unknown = rejectUnknownArguments(args, ['command']);
      if (unknown !== null) return { result: unknown };
      const [program = '', ...rest] = tokenizeShellCommand(args.command);
      if (program.includes('/')) {
        throw new ToolError(
          'PROGRAM_NOT_BARE',
          `'${program}' is a path: give the bare program name (e.g. 'ls'); programs are looked up on PATH only.`,
          { details: { program } },
        );
      }
      if (isShellCommandBlocked(program)) {
        throw new ToolError(
          'COMMAND_BLOCKED',
          `'${program}' is never run by shell_exec: it can delete, change permissions, reach the network, or run other programs.`,
          {
            details: { program },
          },
        );
      }
      if (!allowed.has(program)) {
        throw new ToolError('COMMAND_NOT_ALLOWED', `'${program}' is not on the allowlist. Allowed programs: ${allowlist.join(', ')}.`, {
          details: { program },
        });
      }
      await checkShellArguments(program, rest, workspace);
      const executable = await resolveShellProgram(program, searchPath, workspace);
      if (executable === null)
        throw new ToolError('PROGRAM_NOT_FOUND', `'${program}' is not installed on this machine (not found on PATH).`, {
          details: { program },
        });
      return { input: { program, args: rest, executable } };
    },

    perform: async (command, invocation): Promise<ShellProcessOutcome> => {
      if (invocation.signal.aborted) {
        throw new ToolError('COMMAND_ABORTED', `'${command.program}' was not started because the call was aborted.`, {
          details: { program: command.program },
        });
      }
      try {
        return await runShellProcess({
          executable: command.executable,
          program: command.program,
          args: command.args,
          cwd: workspace.root,
          env,
          timeoutMs,
          maxOutputBytes: MAX_SHELL_OUTPUT_BYTES,
          signal: invocation.signal,
          killGraceMs: KILL_GRACE_MS,
        });
      } catch (error) {
        throw new ToolError('SPAWN_FAILED', `'${command.program}' could not be started: ${(error as Error).message}`, {
          cause: error,
          details: { program: command.program },
        });
      }
    },

    complete: async (outcome, command) => {
      const stdout = cleanShellOutput(outcome.stdout.toString('utf8'));
      const stderr = cleanShellOutput(outcome.stderr.toString('utf8'));
      const stdoutPreview = cutUtf8(stdout, maxStdoutBytes);
      const stderrPreview = cutUtf8(stderr, maxStderrBytes);
      const stdoutCut = stdoutPreview.length < stdout.length;
      const stderrCut = stderrPreview.length < stderr.length;
      const warnings: string[] = [];
      let outputPath: string | undefined;
      if (stdoutCut || stderrCut) {
        const stream = stdoutCut ? 'stdout' : 'stderr';
        const full = stdoutCut ? stdout : stderr;
        outputPath = await writeFullOutput(full);
        warnings.push(
          `${stream} was cut at ${stdoutCut ? maxStdoutBytes : maxStderrBytes} of ${Buffer.byteLength(full)} bytes; ` +
            `the full ${stream} is in ${outputPath}.`,
        );
        if (stdoutCut && stderrCut) warnings.push(`stderr was cut at ${maxStderrBytes} bytes too.`);
      }
      const data: ShellExecResult = {
        exit_code: outcome.exitCode,
        stdout: stdoutPreview,
        stderr: stderrPreview,
        truncated: stdoutCut || stderrCut,
        ...(outputPath === undefined ? {} : { output_path: outputPath }),
        duration_ms: outcome.durationMs,
      };

      if (outcome.stopped === 'timeout') {
        return failure('COMMAND_TIMEOUT', `'${command.program}' did not finish within ${timeoutMs} ms and was stopped.`, {
          ...data,
          timeout_ms: timeoutMs,
        });
      }
      if (outcome.stopped === 'aborted') {
        return failure('COMMAND_ABORTED', `'${command.program}' was stopped because the call was aborted.`, { ...data });
      }
      if (outcome.stopped === 'output_limit') {
        return failure(
          'OUTPUT_LIMIT_EXCEEDED',
          `'${command.program}' wrote more than ${MAX_SHELL_OUTPUT_BYTES} bytes and was stopped` +
            `${outputPath === undefined ? '' : `; what was read is in ${outputPath}`}.`,
          { ...data },
        );
      }
      if (outcome.exitSignal !== null) warnings.push(`The command was ended by ${outcome.exitSignal}.`);
      else if (outcome.exitCode !== 0) warnings.push(`The command exited with code ${String(outcome.exitCode)}; see stderr.`);
      return success(data, { program: command.program }, warnings);
    },
  }) as ToolDefinition<{ command: string }>;
}
