// The demo's entry point: `pnpm demo [command]` runs `tsx --conditions=@milpa/source src/main.ts`.
import { runCli } from './cli/run-cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdoutIsTTY: process.stdout.isTTY === true,
  env: process.env,
});
