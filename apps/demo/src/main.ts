// The demo's entry point: `pnpm demo [command]` runs `tsx --conditions=@milpa/source src/main.ts`.
import { ExitCode } from './cli/cli-io.js';
import { runCli } from './cli/run-cli.js';

// A reader that stops early (`pnpm demo | head`) closes the pipe: that ends the output, quietly,
// instead of an unhandled EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    process.exit(error.code === 'EPIPE' ? (process.exitCode ?? ExitCode.OK) : ExitCode.INTERNAL);
  });
}

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdoutIsTTY: process.stdout.isTTY === true,
  env: process.env,
  stdin: process.stdin,
});
