import { InvalidArgumentError, type Command } from 'commander';
import type { CliIo } from '../cli-io.js';

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) throw new InvalidArgumentError('expected a port number from 0 to 65535.');
  return port;
}

/**
 * Adds `console [--port N] [--host H]`: the demo runtime with the approvals console, a scripted
 * agent whose mutating calls wait for approval, and printed sign-in tokens. `@milpa/console` is
 * loaded only when this command runs.
 *
 * @example
 * addConsoleCommand(program, io); // pnpm demo console --port 4000
 */
export function addConsoleCommand(program: Command, io: CliIo): Command {
  return program
    .command('console')
    .description('open the approvals console on 127.0.0.1 with calls from a scripted agent waiting for approval')
    .option('--port <port>', 'the port to listen on (0: any free port)', parsePort, 4000)
    .option('--host <host>', 'the interface to bind', '127.0.0.1')
    .action(async (flags: { port: number; host: string }) => {
      const { serveDemoConsole } = await import('../../console/serve-demo-console.js');
      await serveDemoConsole({ port: flags.port, host: flags.host }, io);
    });
}
