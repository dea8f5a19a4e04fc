#!/usr/bin/env node
// The test command (`pnpm test`): lint, type-checks, tests and builds of every package, and the checks
// of the packages as they would be published. turbo's dry run lists the tasks and what each waits
// for; this script runs them, three at a time, starting first the ready task with the longest expected
// path to the end of the run (scripts/task-schedule.mjs), and the release checks as soon as the
// builds they read are done. It prints the expected duration first, one line per task as it
// finishes (tests counted), every failing task's log in full, and a summary with counts and times.
//
// With CI set, a Redis or PostgreSQL that does not answer (REDIS_URL, DATABASE_URL or PG*), or no
// Chromium or Chrome to drive, stops the run at once with one line: in CI nothing may be skipped.
// The last complete run's times are kept in .turbo/ (git-ignored): they say how long the next run
// will take and which of its tasks to start first.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { findChromium, NO_BROWSER } from './find-chromium.mjs';
import { pingPostgres, pingRedis } from './service-ping.mjs';
import { displayedUrl, postgresUrlOf, redisUrlOf } from './service-urls.mjs';
import { blockedTasks, criticalPaths, expectedDurations, nextTask, tasksOfDryRun } from './task-schedule.mjs';
import { formatClock, formatDuration, formatFinalSummary, formatTaskLine, summarizeTaskOutput } from './test-progress.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TASKS = ['lint', 'typecheck', 'test', 'build'];
/** Arguments for turbo's task selection (`pnpm test --filter=@milpa/store-redis`); a filtered run skips the release checks. */
const EXTRA = process.argv.slice(2);
const LAST_RUN = join(ROOT, '.turbo', 'milpa-test-last-run.json');
/** A complete run on a quiet 2-core machine, for machines that have not finished one yet. */
const TYPICAL = '5 minutes on a quiet 2-core machine, about twice that on a loaded one';
/**
 * Tasks run at once (`MILPA_TEST_CONCURRENCY` to change it): each test suite's vitest uses half the
 * cores (vitest.shared.ts), and many tests wait on child processes, a browser or a database rather than compute.
 */
const CONCURRENCY = concurrencyOf(process.env.MILPA_TEST_CONCURRENCY, 3);
/** After this long without a finished task, one line says the run is still going. */
const QUIET_MS = 120_000;

/** A whole number of tasks from 1 to 16, or the default when unset; anything else stops the run with one line. */
function concurrencyOf(given, fallback) {
  if (given === undefined || given === '') return fallback;
  const value = Number(given);
  if (Number.isInteger(value) && value >= 1 && value <= 16) return value;
  process.stderr.write(`MILPA_TEST_CONCURRENCY must be a whole number from 1 to 16, not ${JSON.stringify(given)}.\n`);
  process.exit(2);
}

const started = Date.now();
const elapsed = () => Date.now() - started;
const print = (line) => process.stdout.write(`${line}\n`);
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };
const inCi = process.env.CI !== undefined && process.env.CI !== '';

/** turbo's own binary entry, as pnpm installed it at the root. */
const TURBO = join(ROOT, 'node_modules', 'turbo', 'bin', 'turbo');

/**
 * Runs a command, collecting its output (stdout and stderr, in order); `onLine` sees each line as it comes.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, onLine?: (line: string) => void }} options
 */
function run(command, args, { cwd = ROOT, env: runEnv = env, onLine = () => undefined } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: runEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
        output.push(line);
        onLine(line);
      });
    }
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code: code ?? (signal === null ? 1 : 128), output }));
  });
}

function readLastRun() {
  try {
    return JSON.parse(readFileSync(LAST_RUN, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Task times of one complete run on a quiet 2-core machine, committed, so that a fresh clone orders its
 * tasks as well as a machine that has run them (scripts/test-durations.json; `//` holds a comment).
 */
function committedDurations() {
  try {
    const times = JSON.parse(readFileSync(join(ROOT, 'scripts', 'test-durations.json'), 'utf8'));
    return Object.fromEntries(Object.entries(times).filter(([, ms]) => typeof ms === 'number'));
  } catch {
    return {};
  }
}

function expectedDuration(lastRun) {
  if (lastRun !== null && typeof lastRun.ms === 'number') {
    return `about ${formatDuration(lastRun.ms)} (the last complete run on this machine, ${lastRun.finishedAt})`;
  }
  return `about ${TYPICAL}`;
}

async function checkServices() {
  if (!inCi) return;
  const stop = (line) => {
    process.stderr.write(`${line}\n`);
    process.exit(1);
  };
  const [redisUrl, postgresUrl] = [redisUrlOf(process.env), postgresUrlOf(process.env)];
  const [redis, postgres] = await Promise.all([pingRedis(redisUrl), pingPostgres(postgresUrl)]);
  if (redis !== null) {
    stop(
      `No Redis answers at ${displayedUrl(redisUrl)} (${redis}), and with CI set no test may be skipped: ` +
        'start Redis there or set REDIS_URL.',
    );
  }
  if (postgres !== null) {
    stop(
      `No PostgreSQL answers at ${displayedUrl(postgresUrl)} (${postgres}), and with CI set no test may be skipped: ` +
        'start PostgreSQL there or set DATABASE_URL (or PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE).',
    );
  }
  if (findChromium() === null) stop(`${NO_BROWSER} With CI set, no test may be skipped.`);
}

/** The tasks to run, from turbo's dry run of the same selection. */
async function plannedTasks() {
  const { code, output } = await run(process.execPath, [TURBO, 'run', ...TASKS, ...EXTRA, '--dry=json']);
  if (code !== 0) throw new Error(`turbo --dry=json failed:\n${output.join('\n')}`);
  return tasksOfDryRun(JSON.parse(output.join('\n')));
}

/**
 * The checks of the built packages and of the repository, as tasks (a filtered run has none). The
 * release check packs the tarballs into `tarballs`; the release rehearsal, after it, publishes those.
 */
function releaseTasks(tasks, tarballs) {
  if (EXTRA.length > 0) return [];
  const scriptTests = readdirSync(join(ROOT, 'scripts'))
    .filter((file) => file.endsWith('.test.mjs'))
    .sort()
    .map((file) => join('scripts', file));
  const builds = tasks.filter((task) => task.task === 'build').map((task) => task.id);
  const steps = [
    { name: 'release check', args: ['scripts/check-release.mjs', `--keep-tarballs=${tarballs}`], needsBuilds: true },
    {
      name: 'release rehearsal',
      args: ['scripts/release-rehearsal.mjs', `--tarballs=${tarballs}`],
      needsBuilds: true,
      after: ['release#release check'],
    },
    { name: 'shipped text', args: ['scripts/check-shipped-text.mjs'] },
    { name: 'line length', args: ['scripts/check-line-length.mjs'] },
    { name: 'README snippets', args: ['scripts/check-readme-snippets.mjs', '--built'], needsBuilds: true },
    { name: 'script tests', args: ['--test', ...scriptTests] },
  ];
  return steps.map((step) => ({
    id: `release#${step.name}`,
    package: 'release checks',
    task: step.name,
    directory: '',
    command: `node ${step.args.join(' ')}`,
    argv: [process.execPath, ...step.args],
    dependencies: [...(step.needsBuilds ? builds : []), ...(step.after ?? [])],
  }));
}

/** How many test files a package has, and how many of them drive a browser (to guess a first run's order). */
function countTestFiles(task) {
  const names = [];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(join(dir, entry.name));
      else if (/\.test\.ts$/.test(entry.name)) names.push(entry.name);
    }
  };
  for (const folder of ['src', 'test']) walk(join(ROOT, task.directory, folder));
  return { files: names.length, browserFiles: names.filter((name) => name.endsWith('.browser.test.ts')).length };
}

/** The environment a package's script runs with: its own and the root's `node_modules/.bin` first on PATH. */
function taskEnv(task) {
  const bins = [join(ROOT, task.directory, 'node_modules', '.bin'), join(ROOT, 'node_modules', '.bin')];
  return { ...env, PATH: [...bins, env.PATH ?? ''].join(delimiter) };
}

async function runTasks(tasks, lastRun) {
  const expected = expectedDurations(tasks, { ...committedDurations(), ...(lastRun?.tasks ?? {}) }, countTestFiles);
  const priority = criticalPaths(tasks, expected);
  const pending = [...tasks];
  const finished = new Map();
  const results = new Map();
  const timings = [];
  let lastReport = Date.now();
  const quiet = setInterval(() => {
    if (Date.now() - lastReport < QUIET_MS) return;
    lastReport = Date.now();
    print(
      `[${finished.size}/${tasks.length} ${formatClock(elapsed()).padStart(5)}] still running (no task finished in the last 2 minutes)`,
    );
  }, 5_000);

  const runOne = async (task) => {
    const taskStarted = Date.now();
    const [command, ...args] = task.argv ?? ['sh', '-c', task.command];
    const { code, output } = await run(command, args, { cwd: join(ROOT, task.directory), env: taskEnv(task) }).catch((error) => ({
      code: 1,
      output: [`could not start ${task.command}: ${error.message}`],
    }));
    const ms = Date.now() - taskStarted;
    const summary = summarizeTaskOutput(output);
    if (code !== 0) summary.failed = true;
    finished.set(task.id, summary.failed ? 'failed' : 'passed');
    results.set(task.id, summary);
    timings.push({ id: task.id, package: task.package, task: task.task, ms, exitCode: summary.failed ? code || 1 : 0, cached: false });
    lastReport = Date.now();
    print(
      formatTaskLine({
        id: task.id,
        summary: { ...summary, vitestMs: ms },
        done: finished.size,
        total: tasks.length,
        elapsedMs: elapsed(),
      }),
    );
    for (const note of summary.skipNotes) print(`       ${note}`);
    if (summary.failed) print(output.map((line) => `  ${task.id}: ${line}`).join('\n'));
  };

  await new Promise((resolve) => {
    let running = 0;
    const fill = () => {
      for (const task of blockedTasks(pending, finished)) {
        pending.splice(pending.indexOf(task), 1);
        finished.set(task.id, 'failed');
        print(`[${finished.size}/${tasks.length} ${formatClock(elapsed()).padStart(5)}] --   ${task.id}: not run (a task it needs failed)`);
      }
      while (running < CONCURRENCY) {
        const task = nextTask(pending, finished, priority);
        if (task === null) break;
        pending.splice(pending.indexOf(task), 1);
        running += 1;
        runOne(task).finally(() => {
          running -= 1;
          fill();
        });
      }
      if (running === 0) resolve();
    };
    fill();
  });
  clearInterval(quiet);
  return { results, timings, ok: [...finished.values()].every((state) => state === 'passed') };
}

const lastRun = readLastRun();
print(
  EXTRA.length === 0
    ? `Lint, type-checks, tests and builds of every package, and the release checks: expected ${expectedDuration(lastRun)}.`
    : `Lint, type-checks, tests and builds selected by ${EXTRA.join(' ')} (the release checks run in a full run only).`,
);
await checkServices();
const packageTasks = await plannedTasks();
const tarballs = mkdtempSync(join(tmpdir(), 'milpa-test-tarballs-'));
const tasks = [...packageTasks, ...releaseTasks(packageTasks, tarballs)];
print(`${tasks.length} tasks, ${CONCURRENCY} at a time, the longest first; one line as each finishes, a failing task's log in full.`);
const outcome = await runTasks(tasks, lastRun).finally(() => rmSync(tarballs, { recursive: true, force: true }));
const packageTimings = outcome.timings.filter((timing) => !timing.id.startsWith('release#'));
const steps = outcome.timings
  .filter((timing) => timing.id.startsWith('release#'))
  .map((timing) => ({ name: timing.task, ms: timing.ms, ok: timing.exitCode === 0 }));
for (const line of formatFinalSummary({ tasks: packageTimings, results: outcome.results, steps, wallMs: elapsed() })) print(line);

if (outcome.ok && EXTRA.length === 0) {
  mkdirSync(join(ROOT, '.turbo'), { recursive: true });
  const times = Object.fromEntries(outcome.timings.map((timing) => [timing.id, timing.ms]));
  const finishedAt = new Date().toISOString().slice(0, 16).replace('T', ' ');
  writeFileSync(LAST_RUN, `${JSON.stringify({ ms: elapsed(), finishedAt, tasks: times }, null, 2)}\n`);
}
process.exitCode = outcome.ok ? 0 : 1;
