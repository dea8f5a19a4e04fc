import { Command, CommanderError } from 'commander';
import { demoStateDirectory } from '../state/demo-state-path.js';
import { runTour } from '../tour/run-tour.js';
import { shouldUseColor } from '../output/terminal-style.js';
import { ExitCode, type CliIo } from './cli-io.js';
import { addAgentCommand } from './commands/agent-command.js';
import { addCallCommand } from './commands/call-command.js';
import { addGatewayCommand } from './commands/gateway-command.js';
import { addConsoleCommand } from './commands/console-command.js';
import { addInspectCommand } from './commands/inspect-command.js';
import { addListCommand } from './commands/list-command.js';
import { addMcpCommand } from './commands/mcp-command.js';
import { addToolsCommand } from './commands/tools-command.js';
import { DemoUsageError } from './demo-usage-error.js';

const PROGRAM = 'pnpm demo';

const ROOT_HELP = `
Without a command, the tour runs: nineteen short scenes on real calls, in a few seconds, offline.
Start there, then try:
  pnpm demo list
  pnpm demo inspect delete_note --channel mcp
  pnpm demo call list_notes --args '{"page":2}'
  pnpm demo tools --provider ollama --model llama3.1:8b --message "email me a digest"
  pnpm demo agent`;

/** Commander's suggestion suffix, e.g. "(Did you mean list?)". */
const SUGGESTION = /\(Did you mean (.+)\?\)/;

function writeError(io: CliIo, message: string, hint: string): void {
  io.stderr(`error: ${message.replace(/\s*\n\s*/g, ' ')}\nhint: ${hint}\n`);
}

/**
 * Builds the commander program: `tour` (the default), `list`, `inspect`, `call`, `tools`, `mcp`, `gateway` and `agent`, each
 * with `--help`. Commander's own error text is captured rather than printed, so that
 * {@link runCli} can print every error the same way: one `error:` line and one `hint:` line.
 */
function createProgram(io: CliIo, setExitCode: (code: ExitCode) => void, captureError: (text: string, command: string) => void): Command {
  const program = new Command(PROGRAM)
    .description('The Milpa demo: a governed tool registry, its guided tour, and a CLI to list, inspect and call its tools.')
    .usage('[command] [options]')
    .addHelpText('after', ROOT_HELP)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: (text) => captureError(text, '') });

  program
    .command('tour')
    .description('run the guided tour (what `pnpm demo` does without a command)')
    .option(
      '--db <path>',
      "keep the tour's state in this SQLite file, which must be new or empty (default: a fresh file, deleted when the tour ends)",
    )
    .action((flags: { db?: string }) =>
      runTour({
        write: io.stdout,
        color: shouldUseColor({ isTTY: io.stdoutIsTTY }, io.env),
        stateDirectory: demoStateDirectory(io.env),
        ...(flags.db === undefined ? {} : { database: flags.db }),
      }),
    );
  addListCommand(program, io);
  addInspectCommand(program, io);
  addCallCommand(program, io, setExitCode);
  addToolsCommand(program, io);
  addMcpCommand(program, io);
  addGatewayCommand(program, io);
  addAgentCommand(program, io);
  addConsoleCommand(program, io);

  for (const command of program.commands) {
    command.exitOverride().configureOutput({
      writeOut: io.stdout,
      writeErr: io.stderr,
      outputError: (text) => captureError(text, command.name()),
    });
  }
  return program;
}

/**
 * Runs the demo CLI on `argv` (the arguments after the script name) and resolves to the exit
 * status; it never throws and never prints a stack trace. No arguments runs the tour. Bad input
 * prints `error: …` and `hint: …` on stderr and resolves to 2.
 *
 * @example
 * process.exitCode = await runCli(process.argv.slice(2), { stdout: (t) => process.stdout.write(t), … });
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode: ExitCode = ExitCode.OK;
  let commanderError: { text: string; command: string } | null = null;
  const program = createProgram(
    io,
    (code) => {
      exitCode = code;
    },
    (text, command) => {
      commanderError = { text, command };
    },
  );
  const args = argv.length === 0 ? ['tour'] : [...argv];
  try {
    await program.parseAsync(args, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return ExitCode.OK; // --help, help <command>
      const captured: { text: string; command: string } = commanderError ?? { text: error.message, command: '' };
      const [first = error.message, ...rest] = captured.text.trim().split('\n');
      const suggestion = SUGGESTION.exec(rest.join(' '))?.[1];
      const helpFor = captured.command === '' ? PROGRAM : `${PROGRAM} ${captured.command}`;
      writeError(
        io,
        first.replace(/^error:\s*/, ''),
        `${suggestion === undefined ? '' : `did you mean ${suggestion}? `}run '${helpFor} --help' for usage.`,
      );
      return ExitCode.USAGE;
    }
    if (error instanceof DemoUsageError) {
      writeError(io, error.message, error.hint);
      return ExitCode.USAGE;
    }
    const message = error instanceof Error ? error.message : String(error);
    writeError(io, `the demo failed unexpectedly: ${message}`, 'this is a bug in the demo; set MILPA_DEMO_DEBUG=1 to see the stack trace.');
    if (io.env['MILPA_DEMO_DEBUG'] === '1' && error instanceof Error && error.stack !== undefined) io.stderr(`${error.stack}\n`);
    return ExitCode.INTERNAL;
  }
}
