import type { Command } from 'commander';
import { formatPlan } from '../../output/format-plan.js';
import { createTerminalStyle, shouldUseColor } from '../../output/terminal-style.js';
import { createDemoRuntime } from '../../runtime/create-demo-runtime.js';
import { CALLER_HELP, buildCallerContext } from '../caller-context.js';
import type { CliIo } from '../cli-io.js';
import { requireTool } from '../require-tool.js';
import { addCallerOptions, toCallerOptions, type CallerFlags } from './caller-options.js';

/**
 * Adds `inspect <tool> [--channel C] [--actor P] [--scope S ...] [--plan] [--json]`: the
 * `InvocationPlan` of the tool for that caller, as a report or as the whole plan in JSON. It
 * executes nothing, consumes no rate budget and never invents a principal.
 *
 * @example
 * addInspectCommand(program, io); // pnpm demo inspect delete_note --channel mcp --json
 */
export function addInspectCommand(program: Command, io: CliIo): Command {
  const command = program
    .command('inspect')
    .description('show the InvocationPlan of a tool for a caller: which steps would run, and why (executes nothing)')
    .argument('<tool>', 'the tool to inspect (see: pnpm demo list)');
  return addCallerOptions(command)
    .option('--json', 'print the whole plan as JSON (schemaVersion, operation, channel, context, assumptions, wiring, steps)')
    .addHelpText('after', CALLER_HELP)
    .action(async (name: string, flags: CallerFlags & { json?: boolean }) => {
      const { registry } = await createDemoRuntime();
      requireTool(registry, name);
      const plan = registry.inspect(name, buildCallerContext(toCallerOptions(flags)));
      if (plan === null) return; // unreachable: requireTool checked the name
      if (flags.json === true) {
        io.stdout(`${JSON.stringify(plan, null, 2)}\n`);
        return;
      }
      io.stdout(formatPlan(plan, createTerminalStyle(shouldUseColor({ isTTY: io.stdoutIsTTY }, io.env))));
    });
}
