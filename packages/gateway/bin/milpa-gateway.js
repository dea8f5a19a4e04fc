#!/usr/bin/env node
// The milpa-gateway command's launcher. It is committed (dist/ is built), so that package managers can
// link the command on a fresh clone before anything is built; it runs the built command, or says how
// to build it.
import { existsSync } from 'node:fs';

const command = new URL('../dist/cli.js', import.meta.url);

if (existsSync(command)) {
  await import(command.href);
} else {
  process.stderr.write(
    'milpa-gateway: the command is not built yet (dist/cli.js is missing): run `pnpm --filter @milpa/gateway run build`, ' +
      'or `pnpm build` at the repository root.\n',
  );
  process.exitCode = 1;
}
