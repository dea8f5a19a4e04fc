// Shared StrykerJS settings for `pnpm mutation` (mutation testing of the security core).
//
//   pnpm mutation                                        every configured package, in order
//   pnpm mutation tool-runtime                           one package (tool-runtime | verification | mcp)
//   pnpm mutation tool-runtime src/audit/redactor.ts     one file of that package
//   pnpm mutation tool-runtime src/audit/redactor.ts -- --logLevel debug    extra Stryker flags
//
// `scripts/mutation.mjs` runs `stryker run stryker.config.mjs` inside each package (the vitest runner
// needs the package's own vitest config). Each package's `stryker.config.mjs` lists its files and
// calls `strykerConfig` below. One file is chosen with the MILPA_MUTATE environment variable, which
// the script sets from its second argument; it must be one of the package's configured files.
//
// Where results go (git-ignored): reports/mutation/<package>/ for a whole-package run,
// reports/mutation/<package>/<file>/ for a one-file run (e.g. reports/mutation/tool-runtime/
// src-audit-redactor.ts/), each with mutation.html, mutation.json and the incremental file
// stryker-incremental.json. One-file runs keep their own folder so that two of them, on different
// files, never overwrite each other's incremental file. `node scripts/mutation-summary.mjs` prints
// the per-file table of docs/mutation.md from the newest report of every file.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** The folder of one package's (or one file's) reports and incremental file. */
export function reportFolder(packageName, file) {
  const base = join(root, 'reports', 'mutation', packageName);
  return file === undefined ? base : join(base, file.replaceAll('/', '-'));
}

/**
 * The Stryker options for one package.
 * @param {string} packageName the folder under packages/
 * @param {readonly string[]} files the package's security-core files, relative to the package
 */
export function strykerConfig(packageName, files) {
  const only = process.env.MILPA_MUTATE || undefined;
  if (only !== undefined && !files.includes(only)) {
    throw new Error(`MILPA_MUTATE=${only} is not one of @milpa/${packageName}'s configured files: ${files.join(', ')}`);
  }
  const folder = reportFolder(packageName, only);
  return {
    packageManager: 'pnpm',
    testRunner: 'vitest',
    // Under pnpm the runner plugin is not beside @stryker-mutator/core, so it is named by path.
    plugins: [require.resolve('@stryker-mutator/vitest-runner')],
    vitest: { configFile: 'vitest.config.ts', related: true },
    mutate: only === undefined ? [...files] : [only],
    coverageAnalysis: 'perTest',
    incremental: true,
    incrementalFile: join(folder, 'stryker-incremental.json'),
    reporters: ['html', 'json', 'clear-text', 'progress'],
    htmlReporter: { fileName: join(folder, 'mutation.html') },
    jsonReporter: { fileName: join(folder, 'mutation.json') },
    // Two cores, and another Stryker run or a test suite may share them.
    concurrency: Number(process.env.MILPA_MUTATION_CONCURRENCY ?? 1),
    timeoutMS: 10_000,
    // The sandbox (.stryker-tmp/sandbox-XXXX) sits two levels below the repository root, as the
    // package itself does, so the package's vitest.config.ts still finds ../../vitest.shared.ts.
    // Each run makes its own sandbox folder and removes only that one.
    tempDirName: resolve(root, '.stryker-tmp'),
    cleanTempDir: 'always',
    ignorePatterns: ['.turbo', 'coverage'],
    thresholds: { high: 90, low: 80, break: null },
  };
}
