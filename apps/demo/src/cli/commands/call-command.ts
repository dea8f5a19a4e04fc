import type { ToolContext, ToolResult } from '@milpa/core';
import type { Command } from 'commander';
import { formatSpanTree } from '../../output/format-span-tree.js';
import { shouldUseColor } from '../../output/terminal-style.js';
import { createDemoRuntime, type DemoRuntime } from '../../runtime/create-demo-runtime.js';
import { createTraceRecorder } from '../../telemetry/trace-recorder.js';
import { CALLER_HELP, buildCallerContext } from '../caller-context.js';
import { ExitCode, type CliIo } from '../cli-io.js';
import { parseToolArgs } from '../parse-tool-args.js';
import { requireTool } from '../require-tool.js';
import { addCallerOptions, toCallerOptions, type CallerFlags } from './caller-options.js';

/** The flags of `call`. */
interface CallFlags extends CallerFlags {
  readonly args: string;
  readonly json?: boolean;
  readonly confirm?: boolean;
  readonly audit?: boolean;
  readonly requestId?: string;
  readonly trace?: boolean;
}

const EXIT_HELP = `
Exit status: 0 when the result is a success (a confirmation request included), 1 when the pipeline
refused the call or the tool failed, 2 for bad input (unknown tool, invalid --args, unknown option).

Examples:
  pnpm demo call list_notes --args '{"page":2}'
  pnpm demo call list_notes --args '{}' --trace
  pnpm demo call delete_note --args '{"id":2}' --channel telegram --actor tg:ana --scope notes:write --confirm
  pnpm demo call lookup_crop --args '{"name":"beans"}' --channel mcp --actor agent:reader --scope almanac:read --json`;

/** The result as the caller's channel renders it, plus its error code when it failed. */
function show(io: CliIo, demo: DemoRuntime, result: ToolResult, context: ToolContext): void {
  io.stdout(`${String(demo.renderers.render(result, context)).replace(/\n+$/, '')}\n`);
  const code = result.getCode();
  if (!result.success && code !== null) io.stdout(`[${code}]\n`);
}

/**
 * Adds `call <tool> --args '<json>' [--channel C] [--actor P] [--scope S ...] [--plan] [--json]
 * [--confirm] [--audit] [--request-id ID] [--trace]`: one real call through the demo registry's pipeline,
 * printed as the channel's renderer shows it, or as the `ToolResult` JSON. Sets the exit status
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
  return addCallerOptions(command)
    .option('--json', 'print the ToolResult as JSON ({success, data, message, error, meta})')
    .option('--confirm', "answer a confirmation request with yes: replay the call with its confirm_token, as the same caller")
    .option('--audit', 'print the audit lines of the call on stderr')
    .option('--request-id <id>', 'the request id (default: generated)')
    .option('--trace', "print the call's OpenTelemetry spans (name, duration, attributes, events) after the result")
    .addHelpText('after', `${CALLER_HELP}\n${EXIT_HELP}`)
    .action(async (name: string, flags: CallFlags) => {
      const args = parseToolArgs(flags.args);
      const recorder = flags.trace === true ? createTraceRecorder() : null;
      const color = shouldUseColor({ isTTY: io.stdoutIsTTY }, io.env);
      const demo = await createDemoRuntime(recorder === null ? { color } : { color, telemetry: recorder.telemetry });
      requireTool(demo.registry, name);
      const context = buildCallerContext(toCallerOptions(flags, flags.requestId));

      let result = await demo.registry.call(name, args, context);
      const token = result.getConfirmToken();
      if (flags.confirm === true && token !== null) {
        if (flags.json !== true) {
          show(io, demo, result, context);
          io.stdout(`\n--confirm: replaying '${name}' with its confirm_token as ${context.principal ?? '(anonymous)'} on ${context.channel}\n\n`);
        }
        result = await demo.registry.call(name, { ...args, confirm_token: token }, context);
      }

      if (flags.json === true) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
      else show(io, demo, result, context);
      if (flags.audit === true) for (const line of demo.logger.auditLines()) io.stderr(`${line}\n`);
      if (recorder !== null) {
        (flags.json === true ? io.stderr : io.stdout)(`\n${formatSpanTree(recorder.spans())}`);
        await recorder.shutdown();
      }
      setExitCode(result.success ? ExitCode.OK : ExitCode.REFUSED);
    });
}
