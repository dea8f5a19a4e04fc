#!/usr/bin/env node
// `pnpm mutation`: StrykerJS over the security core of each package, one package after the other.
//
//   pnpm mutation                                        every configured package, in order
//   pnpm mutation tool-runtime                           one package
//   pnpm mutation tool-runtime src/audit/redactor.ts     one configured file of that package
//   pnpm mutation tool-runtime src/audit/redactor.ts -- --logLevel debug    extra Stryker flags
//
// Each package's stryker.config.mjs lists its files; the shared settings and where the reports go
// are in ../stryker.shared.mjs. Stryker runs inside the package because its vitest runner needs the
// package's own vitest config. Exits non-zero as soon as one run fails (a failed run, not a low
// score: the score is read from the reports, see docs/mutation.md).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportFolder } from '../stryker.shared.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = ['tool-runtime', 'verification', 'mcp', 'tools'];

const separator = process.argv.indexOf('--', 2);
const ours = separator === -1 ? process.argv.slice(2) : process.argv.slice(2, separator);
const extra = separator === -1 ? [] : process.argv.slice(separator + 1);
const [only, file] = ours;

if (only !== undefined && !PACKAGES.includes(only)) {
  console.error(`Unknown package '${only}'. Configured: ${PACKAGES.join(', ')}.`);
  process.exit(2);
}
if (file !== undefined && !existsSync(join(root, 'packages', only, file))) {
  console.error(`No file packages/${only}/${file}.`);
  process.exit(2);
}

// The package's exports map opens only `.` and `./package.json`, so its bin is found beside the latter.
const stryker = join(dirname(createRequire(import.meta.url).resolve('@stryker-mutator/core/package.json')), 'bin', 'stryker.js');
for (const name of only === undefined ? PACKAGES : [only]) {
  const started = Date.now();
  console.log(`\n== @milpa/${name}${file === undefined ? '' : ` ${file}`} ==`);
  const run = spawnSync(process.execPath, [stryker, 'run', 'stryker.config.mjs', ...extra], {
    cwd: join(root, 'packages', name),
    stdio: 'inherit',
    env: { ...process.env, MILPA_MUTATE: file ?? '' },
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`== @milpa/${name}: ${seconds} s ==`);
  if (run.status !== 0) process.exit(run.status ?? 1);
  // Beside the reports, for scripts/mutation-summary.mjs: Stryker's JSON report has no run time.
  const folder = reportFolder(name, file);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'run.json'), `${JSON.stringify({ seconds, finishedAt: new Date().toISOString() })}\n`);
}
