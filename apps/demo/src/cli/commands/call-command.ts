import { readInBandControls, type ToolContext, type ToolResult } from '@milpa/core';
import { terminalApprovalGate, type TerminalApprovalInput } from '@milpa/tool-runtime';
import type { Command } from 'commander';
import { formatSpanTree } from '../../output/format-span-tree.js';
import { shouldUseColor } from '../../output/terminal-style.js';
import { SUPERVISED_AGENT, createDemoRuntime, type DemoRuntime } from '../../runtime/create-demo-runtime.js';
import { createTraceRecorder } from '../../telemetry/trace-recorder.js';
import { CALLER_HELP, buildCallerContext } from '../caller-context.js';
import { ExitCode, type CliIo } from '../cli-io.js';
import { DemoUsageError } from '../demo-usage-error.js';
import { parseToolArgs } from '../parse-tool-args.js';
import { requireTool } from '../require-tool.js';
import { addCallerOptions, toCallerOptions, type CallerFlags } from './caller-options.js';
import { describeDemoStores, type DemoStores } from '../../state/demo-stores.js';
import { STATE_HELP, addStateOption, openCommandStores, type StateFlags } from './state-option.js';

/** The flags of `call`. */
interface CallFlags extends CallerFlags, StateFlags {
  readonly args: string;
  readonly json?: boolean;
  readonly confirm?: boolean;
  readonly audit?: boolean;
  readonly requestId?: string;
  readonly trace?: boolean;
  readonly run?: string;
  readonly approve?: boolean;
}

/** What `--run` takes besides an id: open a fresh run. */
const NEW_RUN = 'new';

const RUN_HELP = `
Runs (--run):
  A run is one agent task; invocation rules see the history of its calls. Each deletion must
  belong to a run, and a run may delete at most 3 notes (notes.max_deletions_per_run).
  --run new opens a run and prints its id on stderr; pass --run <id> to the next calls. A run the
  history store does not know (never opened, forgotten after a day idle) has an incomplete
  history: deletions in it are refused as history_incomplete. Runs are kept in the state file
  (--db); the notes start afresh on every call.

Folders (notes.own_folder):
  Notes 1-3 and 5 are in 'field', note 4 in 'granary'. cli opens every folder, agent:storekeeper
  only 'granary', every other caller only 'field'; a note in another folder is refused as
  outside_folder, in a run or not.`;

/** The command a reviewer runs to grant a held call, printed on one line of the help. */
const RESOLVE_EXAMPLE =
  `pnpm demo call resolve_verification --args '{"request_id":"<approval_id>","decision":"grant","principal":"user:ana"}' ` +
  '--channel web --actor user:ana --scope verification:resolve';

const APPROVE_HELP = `
Approval (--approve):
  With --approve, every mutating call waits for your y/n on this terminal before it runs: the
  question (on stderr) shows the tool and its arguments, secrets redacted. y or yes runs it;
  anything else ends it as APPROVAL_DENIED. Without an interactive terminal (stdin is a pipe or
  a file, as in CI) nobody can answer, so every mutating call is denied. Reads run without asking.

Held calls (agent:assistant):
  agent:assistant is supervised: each of its mutating calls is held (APPROVAL_PENDING, with an
  approval_id) until someone else holding verification:resolve grants it, in a later call:
    ${RESOLVE_EXAMPLE}
  agent:assistant then repeats its call with "approval_id" added to --args, and it runs once.`;

/** What `--approve` reads answers from when the CLI was given no standard input: nobody to ask. */
const NO_TERMINAL: TerminalApprovalInput = Object.freeze({ isTTY: false, on: () => undefined, removeListener: () => undefined });

const EXIT_HELP = `
Exit status: 0 when the result is a success (a confirmation request included), 1 when the pipeline
refused the call or the tool failed, 2 for bad input (unknown tool, invalid --args, unknown option).

Examples:
  pnpm demo call list_notes --args '{"page":2}'
  pnpm demo call list_notes --args '{}' --trace
  pnpm demo call delete_note --args '{"id":2}' --run new
  pnpm demo call delete_note --args '{"id":2}' --run new --approve
  pnpm demo call delete_note --args '{"id":2}' --channel telegram --actor tg:ana --scope notes:write --run new --confirm
  pnpm demo call lookup_crop --args '{"name":"beans"}' --channel mcp --actor agent:reader --scope almanac:read --json`;

/** The result as the caller's channel renders it, plus its error code when it failed. */
function show(io: CliIo, demo: DemoRuntime, result: ToolResult, context: ToolContext): void {
  io.stdout(`${String(demo.renderers.render(result, context)).replace(/\n+$/, '')}\n`);
  const code = result.getCode();
  if (!result.success && code !== null) io.stdout(`[${code}]\n`);
}

/**
 * Adds `call <tool> --args '<json>' [--channel C] [--actor P] [--scope S ...] [--plan] [--json]
 * [--confirm] [--audit] [--request-id ID] [--trace] [--run ID] [--approve] [--db PATH]`: one real call through
 * the demo registry's pipeline, printed as the channel's renderer shows it, or as the `ToolResult`
 * JSON. `--approve` installs `terminalApprovalGate()`, so a mutating call waits for the operator's
 * y/n on the terminal (and is denied when stdin is not one); `agent:assistant`'s mutating calls
 * are held until another caller grants them with `resolve_verification`. Its state (tokens, rate budgets,
 * verifications, held calls, runs, idempotency keys) lives in the SQLite file `--db` names, by
 * default `os.tmpdir()/milpa-demo/state.db`, shared with the calls before and after it, and
 * closed when the call ends. Sets the exit status
 * from the result. `--trace` then prints the call's OpenTelemetry spans as a tree (on stderr with
 * `--json`, so standard output stays one JSON document).
 *
 * @example
 * addCallCommand(program, io, (code) => (exitCode = code)); // pnpm demo call list_notes --args '{}'
 */
export function addCallCommand(program: Command, io: CliIo, setExitCode: (code: ExitCode) => void): Command {
  const command = program
    .command('call')
    .description('make one real call through the pipeline and print the result')
    .argument('<tool>', 'the tool to call (see: pnpm demo list)')
    .option('--args <json>', 'the arguments, as a JSON object', '{}');
  const withFlags = addCallerOptions(command)
    .option('--json', 'print the ToolResult as JSON ({success, data, message, error, meta})')
    .option('--confirm', 'answer a confirmation request with yes: replay the call with its confirm_token, as the same caller')
    .option('--audit', 'print the audit lines of the call on stderr')
    .option('--request-id <id>', 'the request id (default: generated)')
    .option('--trace', "print the call's OpenTelemetry spans (name, duration, attributes, events) after the result")
    .option('--run <id>', "the agent run the call belongs to: 'new' opens one and prints its id; an id continues that run")
    .option('--approve', 'ask y/n on this terminal before a mutating call runs (denied when there is no terminal)');
  return addStateOption(withFlags)
    .addHelpText('after', `${CALLER_HELP}\n${RUN_HELP}\n${APPROVE_HELP}\n${STATE_HELP}\n${EXIT_HELP}`)
    .action(async (name: string, flags: CallFlags) => {
      const args = parseToolArgs(flags.args);
      const stores = await openCommandStores(flags, io);
      try {
        await callOnce(io, name, args, flags, stores, setExitCode);
      } finally {
        await stores.close();
      }
    });
}

/** The call itself, over the opened state. */
async function callOnce(
  io: CliIo,
  name: string,
  args: Record<string, unknown>,
  flags: CallFlags,
  stores: DemoStores,
  setExitCode: (code: ExitCode) => void,
): Promise<void> {
  const recorder = flags.trace === true ? createTraceRecorder() : null;
  const color = shouldUseColor({ isTTY: io.stdoutIsTTY }, io.env);
  const demo = await createDemoRuntime({
    color,
    stores,
    supervisedPrincipals: [SUPERVISED_AGENT],
    ...(recorder === null ? {} : { telemetry: recorder.telemetry }),
    ...(flags.approve === true
      ? { approvalGate: terminalApprovalGate({ input: io.stdin ?? NO_TERMINAL, output: { write: io.stderr } }) }
      : {}),
  });
  requireTool(demo.registry, name);
  const runId = await openOrContinueRun(io, demo, flags.run);
  const context = buildCallerContext({ ...toCallerOptions(flags, flags.requestId), ...(runId === null ? {} : { runId }) });

  // --args may carry a confirm_token or an approval_id, as a model sends them: they are call options.
  const read = readInBandControls(args);
  if (!read.ok) throw new DemoUsageError(read.message, "pass only the tool's own arguments in --args", 'INVALID_ARGS');
  let result = await demo.registry.call(name, read.args, context, read.controls);
  const token = result.getConfirmationRequest()?.token ?? null;
  if (flags.confirm === true && token !== null) {
    if (flags.json !== true) {
      show(io, demo, result, context);
      io.stdout(
        `\n--confirm: replaying '${name}' with its confirm_token as ${context.principal ?? '(anonymous)'} on ${context.channel}\n\n`,
      );
    }
    result = await demo.registry.call(name, read.args, context, { ...read.controls, confirmToken: token });
  }

  if (flags.json === true) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
  else show(io, demo, result, context);
  if (flags.audit === true) for (const line of demo.logger.auditLines()) io.stderr(`${line}\n`);
  if (!result.success && result.meta['reason'] === 'history_incomplete') io.stderr(`${incompleteHistoryHint(runId, stores)}\n`);
  if (recorder !== null) {
    (flags.json === true ? io.stderr : io.stdout)(`\n${formatSpanTree(recorder.spans())}`);
    await recorder.shutdown();
  }
  setExitCode(result.success ? ExitCode.OK : ExitCode.REFUSED);
}

/** `--run new`: a fresh run, its id printed on stderr; `--run <id>`: that id; no `--run`: null. */
async function openOrContinueRun(io: CliIo, demo: DemoRuntime, run: string | undefined): Promise<string | null> {
  if (run === undefined) return null;
  if (run === NEW_RUN) {
    const runId = await demo.registry.startRun();
    io.stderr(`run ${runId} opened; pass --run ${runId} to continue it\n`);
    return runId;
  }
  if (run.trim() === '' || run.length > 256) {
    throw new DemoUsageError(
      '--run needs a run id of 1 to 256 characters',
      "pass 'new' to open a run, or the id a 'new' run printed",
      'INVALID_OPTION',
    );
  }
  return run;
}

/** The one-line hint after a refusal for an incomplete history. */
function incompleteHistoryHint(runId: string | null, stores: DemoStores): string {
  if (runId === null)
    return 'hint: this call belongs to no run, so its history is incomplete: add --run new, then pass the id it prints with --run.';
  return (
    `hint: run '${runId}' was not opened with --run new in ${describeDemoStores(stores)} (or its history was forgotten or trimmed), ` +
    'so its history is incomplete: open one with --run new.'
  );
}
