import type { Command } from 'commander';
import { formatToolList } from '../../output/format-tool-list.js';
import { createTerminalStyle, shouldUseColor } from '../../output/terminal-style.js';
import { createDemoRuntime } from '../../runtime/create-demo-runtime.js';
import { CALLER_CHANNELS } from '../caller-context.js';
import type { CliIo } from '../cli-io.js';

/**
 * Adds `list [--json]`: the demo registry's tools with their scopes, mutating flag, confirmation
 * and description, or with `--json` the LLM/MCP wire listing (`getToolSummaries()`).
 *
 * @example
 * addListCommand(program, io); // pnpm demo list
 */
export function addListCommand(program: Command, io: CliIo): Command {
  return program
    .command('list')
    .description('list the demo tools: scopes, mutating flag, confirmation, description')
    .option('--json', 'print the wire listing (name, description, inputSchema) as JSON')
    .action(async (flags: { json?: boolean }) => {
      const { registry } = await createDemoRuntime();
      if (flags.json === true) {
        io.stdout(`${JSON.stringify(registry.getToolSummaries(), null, 2)}\n`);
        return;
      }
      const gate = registry.getPolicyGate();
      const confirming = CALLER_CHANNELS.filter((channel) => gate.channelPolicy(channel).require_confirmation_for_mutating === true);
      io.stdout(
        formatToolList(registry.getToolDefinitions(), createTerminalStyle(shouldUseColor({ isTTY: io.stdoutIsTTY }, io.env)), confirming),
      );
    });
}
