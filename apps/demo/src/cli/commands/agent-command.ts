import type { Command } from 'commander';
import { runAgentConversation } from '../../agent/run-agent-conversation.js';
import { shouldUseColor } from '../../output/terminal-style.js';
import type { CliIo } from '../cli-io.js';

const AGENT_HELP = `
What it shows: @milpa/ai-sdk in a real AI SDK tool loop (generateText) with a scripted model, so it
runs offline: the model lists the notes, is refused a note outside its folder and reads the refusal,
asks to delete a note the runtime holds for a person (the AI SDK's tool-approval-request), and the
deletion runs once after user:ana approves it. Nothing is kept: every run starts from the same notes.`;

/**
 * Adds `agent`: a scripted agent conversation on the Vercel AI SDK over the demo runtime — a
 * refusal the model reads, an approval through the AI SDK's own flow, and the result.
 *
 * @example
 * addAgentCommand(program, io); // pnpm demo agent
 */
export function addAgentCommand(program: Command, io: CliIo): Command {
  return program
    .command('agent')
    .description('run a scripted agent conversation on the Vercel AI SDK: a refusal, an approval and a result (offline)')
    .addHelpText('after', AGENT_HELP)
    .action(async () => {
      await runAgentConversation({ write: io.stdout, color: shouldUseColor({ isTTY: io.stdoutIsTTY }, io.env) });
    });
}
