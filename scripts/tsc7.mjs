#!/usr/bin/env node
// Runs TypeScript 7, the native compiler, with the given arguments, in the current directory: the
// packages' `typecheck` (`node ../../scripts/tsc7.mjs --noEmit -p tsconfig.json`) and the declaration
// step of their `build` (`-p tsconfig.build.json`). It is the root devDependency `typescript-7` (an
// npm alias of `typescript@7`), called by path because the packages' own `tsc` stays TypeScript 5.9:
// tsup, the README snippet check and the release check's consumer build with the 5.x API.
//
// Single-threaded: turbo already runs two tasks at a time on a 2-core machine, and TypeScript 7's
// parallel checkers each check part of the program again, costing about twice the CPU time for the
// same diagnostics.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

// The command-line entry of TypeScript 7 (its `bin` file is not in its `exports`).
const tsc7 = join(dirname(require.resolve('typescript-7/package.json')), 'bin', 'tsc');

const result = spawnSync(process.execPath, [tsc7, '--singleThreaded', ...process.argv.slice(2)], { stdio: 'inherit' });
if (result.error) throw result.error;
process.exitCode = result.status ?? 1;
