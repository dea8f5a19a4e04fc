#!/usr/bin/env node
// Type-checks and runs every TypeScript and JavaScript code block of the root README and of each
// package README, so the examples users copy compile under strict settings and do what they say.
//
// Each ```ts / ```js block becomes one file in `.readme-snippets/` inside the README's directory
// (git-ignored, removed afterwards), so its imports resolve as they would for a user of that
// package: the package itself by name, its dependencies from its node_modules, and sibling
// packages from `src/` through the `@milpa/source` condition (nothing needs building first; with
// `--built`, from their `dist/`).
// All files are type-checked in one `tsc` program (strict, the repository's `tsconfig.base.json`);
// then each is run with tsx in a child process (in the snippet directory, so files it writes go away),
// two at a time, each with a time limit.
//
// A block directly preceded by the line `<!-- snippet: fragment -->` is a fragment: it is
// type-checked but not run (for code that needs a model provider or an upstream server). A block
// preceded by `<!-- snippet: needs redis -->` or `<!-- snippet: needs postgres -->` is type-checked,
// and run when that service answers: the check pings it once (at `REDIS_URL`, resp. `DATABASE_URL` or
// the `PG*` variables, else the local default) and runs those blocks with `REDIS_URL` / `DATABASE_URL`
// set to it. When it does not answer, with `CI` set the check fails with one line; without `CI` it
// prints one `[skipped] …` line naming the blocks not run and how to run them, and passes. A block
// preceded by `<!-- snippet: skip -->` is neither type-checked nor run (configuration excerpts
// that are not a program). Use these sparingly: a reader copies the block as it is.
//
// Prints `README.md:line: message` for each failure and a one-line summary; exits 1 on a failure.
//
//   node scripts/check-readme-snippets.mjs [--built] [--show-output] [README.md …]
//   (default: the root and package READMEs; --show-output prints what each snippet wrote; --built
//   uses the packages' built dist/, as the root test command does after its build: much faster,
//   since the packages' sources are then neither type-checked again nor compiled for each run)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pingPostgres, pingRedis } from './service-ping.mjs';
import { displayedUrl, postgresUrlOf, redisUrlOf } from './service-urls.mjs';

/**
 * READMEs whose examples are not yet self-contained (they use a model, a server or names defined
 * elsewhere). They are left out by default and named in the summary; remove an entry once its
 * README passes (`node scripts/check-readme-snippets.mjs packages/x/README.md` checks it alone).
 */
export const PENDING_READMES = Object.freeze([]);

/** The directory, beside each README, that holds the extracted snippets while the check runs. */
export const SNIPPET_DIRECTORY = '.readme-snippets';

/** The languages of the fenced blocks that are checked, and the extension each is written with. */
const LANGUAGES = Object.freeze({ ts: 'ts', typescript: 'ts', js: 'mjs', javascript: 'mjs' });

/** The markers a block may carry on the line before its fence. */
export const MARKERS = Object.freeze({
  fragment: '<!-- snippet: fragment -->',
  skip: '<!-- snippet: skip -->',
  redis: '<!-- snippet: needs redis -->',
  postgres: '<!-- snippet: needs postgres -->',
});

/**
 * The services a block may need (`<!-- snippet: needs <name> -->`): how it is named to readers, the
 * variable its snippets read its URL from, where the check finds it, and how to get one there.
 */
export const SERVICES = Object.freeze({
  redis: Object.freeze({
    title: 'Redis',
    variable: 'REDIS_URL',
    urlOf: redisUrlOf,
    ping: pingRedis,
    hint: 'start Redis there (redis-server) or set REDIS_URL',
  }),
  postgres: Object.freeze({
    title: 'PostgreSQL',
    variable: 'DATABASE_URL',
    urlOf: postgresUrlOf,
    ping: pingPostgres,
    hint: 'start PostgreSQL there or set DATABASE_URL (or PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE)',
  }),
});

/**
 * What the check does about the snippets whose service did not answer: nothing when every service
 * answered; with `CI` set, fail with one line (nothing may be skipped there); otherwise, pass with
 * one `[skipped] …` line naming the snippets not run and how to run them.
 *
 * @param {{ service: 'redis' | 'postgres', url: string, reason: string, snippets: string[] }[]} unavailable
 *   one entry per service that did not answer: its URL, why, and its snippets (`README.md:line`)
 * @param {boolean} inCi whether `CI` is set
 * @returns {{ failed: boolean, line: string | null }}
 */
export function decideUnavailable(unavailable, inCi) {
  if (unavailable.length === 0) return { failed: false, line: null };
  const parts = unavailable.map(({ service, url, reason, snippets }) => {
    const { title, hint } = SERVICES[service];
    return `${snippets.join(', ')} need ${title}, which does not answer at ${displayedUrl(url)} (${reason}): ${hint}`;
  });
  if (inCi) return { failed: true, line: `check-readme-snippets: with CI set no snippet may be skipped: ${parts.join('; ')}` };
  return { failed: false, line: `[skipped] not run: ${parts.join('; ')}` };
}

/**
 * Whether `CI` is set (to anything but the empty string).
 *
 * @param {Record<string, string | undefined>} env
 * @returns {boolean}
 */
export function isCi(env) {
  return env.CI !== undefined && env.CI !== '';
}

/** How long one snippet may run, in milliseconds (generous: the machine may be loaded). */
export const RUN_TIMEOUT_MS = 60_000;

/** How many snippets run at once. */
export const RUN_PARALLELISM = 2;

/**
 * The checked code blocks of a Markdown text, in order.
 *
 * @param {string} markdown
 * @returns {{ index: number, line: number, language: 'ts' | 'mjs', mode: 'run' | 'fragment' | 'skip',
 *   needs: 'redis' | 'postgres' | null, code: string }[]}
 *   `line` is the 1-based line of the block's first code line; `index` counts checked blocks from 1;
 *   `needs` names the service a block runs only with (its mode is then `run`).
 */
export function extractSnippets(markdown) {
  const lines = markdown.split(/\r?\n/);
  const snippets = [];
  let previous = '';
  for (let at = 0; at < lines.length; at += 1) {
    const fence = /^(\s*)(`{3,})\s*([A-Za-z]*)\s*$/.exec(lines[at]);
    if (fence === null) {
      if (lines[at].trim() !== '') previous = lines[at].trim();
      continue;
    }
    const [, indent, ticks, language] = fence;
    let end = at + 1;
    while (end < lines.length && !new RegExp(`^${indent}${ticks}\\s*$`).test(lines[end])) end += 1;
    const extension = LANGUAGES[language.toLowerCase()];
    if (extension !== undefined) {
      const mode = previous === MARKERS.fragment ? 'fragment' : previous === MARKERS.skip ? 'skip' : 'run';
      const needs = previous === MARKERS.redis ? 'redis' : previous === MARKERS.postgres ? 'postgres' : null;
      const code = lines.slice(at + 1, end).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
      snippets.push({ index: snippets.length + 1, line: at + 2, language: extension, mode, needs, code: `${code.join('\n')}\n` });
    }
    previous = '';
    at = end;
  }
  return snippets;
}

/**
 * The READMEs checked by default: the root README and each package's, relative to `root`.
 *
 * @param {string} root
 * @returns {string[]}
 */
export function listReadmes(root) {
  const readmes = existsSync(join(root, 'README.md')) ? ['README.md'] : [];
  const packages = join(root, 'packages');
  if (!existsSync(packages)) return readmes;
  for (const name of readdirSync(packages).sort()) {
    if (existsSync(join(packages, name, 'README.md'))) readmes.push(`packages/${name}/README.md`);
  }
  return readmes;
}

/**
 * Maps `tsc` diagnostics on snippet files back to README lines.
 *
 * @param {string} output `tsc --pretty false` output
 * @param {Map<string, { readme: string, line: number }>} files absolute snippet path → where its code starts
 * @returns {string[]} one `README.md:line:column: error TS…` entry per diagnostic (continuation lines kept)
 */
export function mapDiagnostics(output, files) {
  const entries = [];
  for (const line of output.split(/\r?\n/)) {
    const located = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(line);
    const origin = located === null ? undefined : files.get(resolve(located[1]));
    if (located !== null && origin !== undefined) {
      entries.push(`${origin.readme}:${origin.line + Number(located[2]) - 1}:${located[3]}: ${located[4]}`);
    } else if (line.trim() !== '') {
      if (entries.length > 0 && /^\s/.test(line)) entries[entries.length - 1] += `\n${line}`;
      else entries.push(line);
    }
  }
  return entries;
}

/**
 * Runs `tasks` with at most `limit` running at once and resolves with their results in order.
 *
 * @template T
 * @param {(() => Promise<T>)[]} tasks
 * @param {number} limit
 * @returns {Promise<T[]>}
 */
export async function runBounded(tasks, limit) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const at = next;
      next += 1;
      results[at] = await tasks[at]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/**
 * Runs one snippet file with tsx, resolving workspace packages from their sources.
 *
 * @param {string} file
 * @param {string} tsxLoader file URL of tsx's ESM loader
 * @param {number} timeoutMs
 * @param {boolean} built whether workspace packages resolve to their built `dist/` instead of `src/`
 * @param {Record<string, string>} [env] variables set for this snippet on top of the check's own
 * @returns {Promise<{ code: number | null, timedOut: boolean, output: string }>}
 */
export function runSnippet(file, tsxLoader, timeoutMs, built, env = {}) {
  return new Promise((done) => {
    const conditions = built ? [] : ['--conditions=@milpa/source'];
    const child = spawn(process.execPath, [...conditions, '--import', tsxLoader, file], {
      cwd: dirname(file),
      env: { ...process.env, ...env, NODE_NO_WARNINGS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, timedOut, output });
    });
  });
}

/**
 * Creates an empty snippet directory whose `node_modules/@milpa` links every workspace package, as
 * if the user had installed the Milpa packages the snippet imports beside the README's own.
 *
 * @param {string} root
 * @param {string} directory
 */
function prepareDirectory(root, directory) {
  rmSync(directory, { recursive: true, force: true });
  const scope = join(directory, 'node_modules', '@milpa');
  mkdirSync(scope, { recursive: true });
  const packages = join(root, 'packages');
  for (const name of existsSync(packages) ? readdirSync(packages) : []) {
    if (existsSync(join(packages, name, 'package.json'))) symlinkSync(join(packages, name), join(scope, name), 'dir');
  }
}

/**
 * Pings, once each, the services the runnable snippets need.
 *
 * @param {{ file: string, needs: 'redis' | 'postgres' | null }[]} runs
 * @param {Map<string, { readme: string, line: number }>} files
 * @param {Record<string, string | undefined>} env
 * @returns {Promise<{ urls: Map<string, string>, unavailable: { service: 'redis' | 'postgres', url: string, reason: string,
 *   snippets: string[] }[] }>} the URL of each service that answered, and the others
 */
async function reachServices(runs, files, env) {
  const needed = [...new Set(runs.map((run) => run.needs).filter((needs) => needs !== null))];
  const urls = new Map();
  const unavailable = [];
  await Promise.all(
    needed.map(async (service) => {
      const url = SERVICES[service].urlOf(env);
      const reason = await SERVICES[service].ping(url);
      if (reason === null) {
        urls.set(service, url);
        return;
      }
      const where = (run) => `${files.get(run.file).readme}:${files.get(run.file).line}`;
      const snippets = runs.filter((run) => run.needs === service).map(where);
      unavailable.push({ service, url, reason, snippets });
    }),
  );
  unavailable.sort((a, b) => a.service.localeCompare(b.service));
  return { urls, unavailable };
}

/**
 * Extracts, type-checks and runs the snippets of `readmes` (paths relative to `root`).
 *
 * @param {string} root
 * @param {string[]} readmes
 * @param {{ out: (line: string) => void, err: (line: string) => void }} io
 * @param {{ timeoutMs?: number, parallelism?: number, showOutput?: boolean, built?: boolean,
 *   env?: Record<string, string | undefined> }} [options]
 *   `showOutput` prints what each snippet wrote, to compare with what its comments say; `built`
 *   resolves the workspace packages to their built `dist/` (types and code), as a user gets them;
 *   `env` is where the service URLs and `CI` are read (default `process.env`)
 * @returns {Promise<0 | 1>} the exit status
 */
export async function runCheck(root, readmes, io, options = {}) {
  const started = Date.now();
  const require = createRequire(join(root, 'package.json'));
  const tsc = require.resolve('typescript/bin/tsc');
  const tsxLoader = pathToFileURL(require.resolve('tsx/esm')).href;
  const directories = new Set();
  const files = new Map();
  const runs = [];
  let skipped = 0;
  try {
    for (const readme of readmes) {
      const directory = join(root, dirname(readme), SNIPPET_DIRECTORY);
      const stem = readme.split('/').at(-1).replace(/\.md$/i, '').toLowerCase();
      for (const snippet of extractSnippets(readFileSync(join(root, readme), 'utf8'))) {
        if (snippet.mode === 'skip') {
          skipped += 1;
          continue;
        }
        if (!directories.has(directory)) {
          prepareDirectory(root, directory);
          directories.add(directory);
        }
        const file = join(directory, `${stem}-${snippet.index}.${snippet.language}`);
        writeFileSync(file, snippet.code);
        files.set(file, { readme, line: snippet.line });
        if (snippet.mode === 'run') runs.push({ file, needs: snippet.needs });
      }
    }
    if (files.size === 0) {
      io.out('check-readme-snippets: no snippets found');
      return 0;
    }
    const configDirectory = join(root, SNIPPET_DIRECTORY);
    mkdirSync(configDirectory, { recursive: true });
    directories.add(configDirectory);
    const config = join(configDirectory, 'tsconfig.json');
    writeFileSync(
      config,
      JSON.stringify({
        extends: relative(configDirectory, join(root, 'tsconfig.base.json')).split(sep).join('/'),
        compilerOptions: {
          noEmit: true,
          declaration: false,
          declarationMap: false,
          allowJs: true,
          checkJs: true,
          types: ['node'],
          moduleDetection: 'force',
          // A snippet shows a value by naming it (`result.data;`); unused names are fine there.
          noUnusedLocals: false,
          noUnusedParameters: false,
          ...(options.built ? { customConditions: [] } : {}),
        },
        files: [...files.keys()],
      }),
    );
    const checked = spawnSync(process.execPath, [tsc, '--pretty', 'false', '-p', config], { cwd: root, encoding: 'utf8' });
    const typeChecked = Date.now();
    const diagnostics = checked.status === 0 ? [] : mapDiagnostics(`${checked.stdout}${checked.stderr}`, files);
    for (const diagnostic of diagnostics) io.err(diagnostic);
    const env = options.env ?? process.env;
    const services = await reachServices(runs, files, env);
    const runnable = runs.filter((run) => run.needs === null || services.urls.has(run.needs));
    const results = await runBounded(
      runnable.map(({ file, needs }) => () => {
        const serviceEnv = needs === null ? {} : { [SERVICES[needs].variable]: services.urls.get(needs) };
        return runSnippet(file, tsxLoader, options.timeoutMs ?? RUN_TIMEOUT_MS, options.built === true, serviceEnv);
      }),
      options.parallelism ?? RUN_PARALLELISM,
    );
    let failedRuns = 0;
    results.forEach((result, at) => {
      const origin = files.get(runnable[at].file);
      if (options.showOutput) io.out(`${origin.readme}:${origin.line}:\n${result.output.trimEnd()}`);
      if (result.code === 0 && !result.timedOut) return;
      failedRuns += 1;
      const why = result.timedOut
        ? `did not finish within ${(options.timeoutMs ?? RUN_TIMEOUT_MS) / 1000} s`
        : `exited with ${result.code}`;
      io.err(`${origin.readme}:${origin.line}: the snippet ${why}:\n${result.output.trimEnd().split('\n').slice(-15).join('\n')}`);
    });
    const seconds = (from, to) => ((to - from) / 1000).toFixed(1);
    const now = Date.now();
    const summary =
      `check-readme-snippets: ${files.size} snippets type-checked (${diagnostics.length} errors), ` +
      `${runnable.length} run (${failedRuns} failed), ${skipped + runs.length - runnable.length} skipped, in ${seconds(started, now)} s ` +
      `(type-check ${seconds(started, typeChecked)} s, runs ${seconds(typeChecked, now)} s)`;
    const verdict = decideUnavailable(services.unavailable, isCi(env));
    if (verdict.line !== null && !verdict.failed) io.out(verdict.line);
    if (diagnostics.length > 0 || checked.status !== 0 || failedRuns > 0 || verdict.failed) {
      if (verdict.failed) io.err(verdict.line);
      io.err(summary);
      return 1;
    }
    io.out(summary);
    return 0;
  } finally {
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const flags = new Set(['--show-output', '--built']);
  const showOutput = process.argv.includes('--show-output');
  const built = process.argv.includes('--built');
  const named = process.argv.slice(2).filter((argument) => !flags.has(argument));
  const readmes =
    named.length > 0
      ? named.map((file) => relative(root, resolve(file)).split(sep).join('/'))
      : listReadmes(root).filter((readme) => !PENDING_READMES.includes(readme));
  const io = { out: (line) => console.log(line), err: (line) => console.error(line) };
  if (named.length === 0 && PENDING_READMES.length > 0) io.out(`check-readme-snippets: not yet checked: ${PENDING_READMES.join(', ')}`);
  process.exitCode = await runCheck(root, readmes, io, { showOutput, built });
}
