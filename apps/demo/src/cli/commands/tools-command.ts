import { MilpaError } from '@milpa/core';
import type { Command } from 'commander';
import { formatTurnOffers } from '../../output/format-turn-offers.js';
import { createTerminalStyle, shouldUseColor } from '../../output/terminal-style.js';
import { createDemoRuntime } from '../../runtime/create-demo-runtime.js';
import { CALLER_HELP, buildCallerContext } from '../caller-context.js';
import type { CliIo } from '../cli-io.js';
import { describeCaller } from '../../tour/tour-writer.js';
import { DemoUsageError } from '../demo-usage-error.js';
import { addCallerOptions, toCallerOptions, type CallerFlags } from './caller-options.js';

/** The flags of `tools`. */
interface ToolsFlags extends CallerFlags {
  readonly provider: string;
  readonly model: string;
  readonly message?: string;
  readonly json?: boolean;
}

const TOOLS_HELP = `
What it shows: registry.toolsFor() for one turn — the tools this caller may call, routed by the
message, capped by the model's per-turn budget and fitted to its profile (ollama and groq small
models get the minimal profile: 5 tools, first-line descriptions). Examples:
  pnpm demo tools --provider openai --model gpt-4o-mini --message "email me a digest"
  pnpm demo tools --provider ollama --model llama3.1:8b --message "delete the note about maize"
  pnpm demo tools --provider anthropic --model claude-sonnet-4 --channel mcp --actor agent:reader --scope notes:read --json`;

/**
 * Adds `tools --provider P --model M [--message T] [--channel C] [--actor P] [--scope S ...] [--json]`:
 * what `registry.toolsFor()` offers that model for that caller and message — profile, budget,
 * estimated tokens, each callable tool offered, pinned or left out — or with `--json` the whole
 * answer, tools in the provider's shape included. It executes nothing.
 *
 * @example
 * addToolsCommand(program, io); // pnpm demo tools --provider ollama --model llama3.1:8b
 */
export function addToolsCommand(program: Command, io: CliIo): Command {
  const command = program
    .command('tools')
    .description("show the tools one model is offered this turn: routed by the message, within the model's budget (executes nothing)")
    .requiredOption('--provider <provider>', 'the provider: openai, anthropic, ollama, groq, gemini, mistral, deepseek, mcp, …')
    .requiredOption('--model <model>', 'the model id, e.g. gpt-4o-mini, claude-sonnet-4, llama3.1:8b')
    .option('--message <text>', "the user's message this turn; the router ranks tools by it and pins the ones it names");
  return addCallerOptions(command, { plan: false })
    .option(
      '--json',
      "print the whole answer as JSON (tools in the provider's shape, names, profile, budget, pinned, excluded, estimatedTokens)",
    )
    .addHelpText('after', `${TOOLS_HELP}\n${CALLER_HELP}`)
    .action(async (flags: ToolsFlags) => {
      const { registry } = await createDemoRuntime();
      const context = buildCallerContext(toCallerOptions(flags));
      const turn = await registry
        .toolsFor(context, {
          provider: flags.provider,
          model: flags.model,
          ...(flags.message === undefined ? {} : { message: flags.message }),
        })
        .catch((error: unknown) => {
          if (MilpaError.isInstance(error) && error.code === 'INVALID_ARGUMENT') {
            throw new DemoUsageError(
              error.message.replace(/^toolsFor: /, '--'),
              'give a non-empty --provider and --model, e.g. --provider openai --model gpt-4o-mini.',
              'INVALID_OPTION',
            );
          }
          throw error;
        });
      if (flags.json === true) {
        io.stdout(`${JSON.stringify(turn, null, 2)}\n`);
        return;
      }
      const style = createTerminalStyle(shouldUseColor({ isTTY: io.stdoutIsTTY }, io.env));
      io.stdout(`${style.bold(`${flags.provider} / ${flags.model}`)} ${style.dim(`for ${describeCaller(context)}`)}\n`);
      if (flags.message !== undefined) io.stdout(`  message: ${JSON.stringify(flags.message)}\n`);
      if (turn.names.length === 0 && turn.excluded.length === 0) {
        io.stdout(`  No tools: this caller may call none of the demo's tools (see: pnpm demo inspect <tool> with the same caller).\n`);
        return;
      }
      const order = registry.getToolDefinitions().map((definition) => definition.name);
      io.stdout(formatTurnOffers([{ label: 'offered', turn }], order, { header: style.bold }));
      io.stdout(
        `${style.dim(
          `  ${turn.names.length} offered, ${turn.pinned.length} pinned, ` +
            `${turn.excluded.length} left out${turn.ranked ? '' : ' (within budget: nothing ranked)'}.`,
        )}\n`,
      );
    });
}
