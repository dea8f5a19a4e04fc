#!/usr/bin/env node
// The test command (`pnpm test`): turbo runs lint, type-checks, tests and builds of every package,
// then the release checks run. It prints the expected duration first, one line per task as it
// finishes (tests counted), every failing task's log in full, and a summary with counts and times.
//
// With CI set, a Redis or PostgreSQL that does not answer (REDIS_URL, DATABASE_URL or PG*), or no
// Chromium or Chrome to drive, stops the run at once with one line: in CI nothing may be skipped.
// The last complete run's duration is kept in .turbo/ (git-ignored) to say how long the next one will take.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { findChromium, NO_BROWSER } from './find-chromium.mjs';
import { pingPostgres, pingRedis } from './service-ping.mjs';
import { postgresUrlOf, redisUrlOf } from './service-urls.mjs';
import {
  createGroupedLogReader,
  formatClock,
  formatDuration,
  formatFinalSummary,
  formatTaskLine,
  summarizeTaskOutput,
  tasksOfRunSummary,
} from './test-progress.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TASKS = ['lint', 'typecheck', 'test', 'build'];
/** Arguments for turbo (`pnpm test --filter=@milpa/store-redis`); a filtered run skips the release checks. */
const EXTRA = process.argv.slice(2);
const LAST_RUN = join(ROOT, '.turbo', 'milpa-test-last-run.json');
/** A complete run on a quiet 2-core machine, for machines that have not finished one yet. */
const TYPICAL = '13 minutes on a quiet 2-core machine, about twice that on a loaded one';
/** After this long without a finished task, one line says the run is still going. */
const QUIET_MS = 120_000;

const started = Date.now();
const elapsed = () => Date.now() - started;
const print = (line) => process.stdout.write(`${line}\n`);
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };
const inCi = process.env.CI !== undefined && process.env.CI !== '';

/** turbo's own binary entry, as pnpm installed it at the root. */
const TURBO = join(ROOT, 'node_modules', 'turbo', 'bin', 'turbo');

/** Runs a command, collecting its output (stdout and stderr, in order); `onLine` sees each line as it comes. */
function run(command, args, onLine = () => undefined) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
        output.push(line);
        onLine(line);
      });
    }
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

function expectedDuration() {
  try {
    const last = JSON.parse(readFileSync(LAST_RUN, 'utf8'));
    return `about ${formatDuration(last.ms)} (the last complete run on this machine, ${last.finishedAt})`;
  } catch {
    return `about ${TYPICAL}`;
  }
}

/** The URL without its password, for messages. */
function shown(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
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
    stop(`No Redis answers at ${shown(redisUrl)} (${redis}), and with CI set no test may be skipped: start Redis there or set REDIS_URL.`);
  }
  if (postgres !== null) {
    stop(
      `No PostgreSQL answers at ${shown(postgresUrl)} (${postgres}), and with CI set no test may be skipped: ` +
        'start PostgreSQL there or set DATABASE_URL (or PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE).',
    );
  }
  if (findChromium() === null) stop(`${NO_BROWSER} With CI set, no test may be skipped.`);
}

/** The tasks turbo will run (those the packages define), from a dry run. */
async function plannedTasks() {
  const { code, output } = await run(process.execPath, [TURBO, 'run', ...TASKS, ...EXTRA, '--dry=json']);
  if (code !== 0) throw new Error(`turbo --dry=json failed:\n${output.join('\n')}`);
  const plan = JSON.parse(output.join('\n'));
  return plan.tasks.filter((task) => task.command !== '<NONEXISTENT>').map((task) => task.taskId);
}

async function runTurbo(taskIds) {
  const results = new Map();
  const logs = new Map();
  let summaryPath = null;
  let lastReport = Date.now();
  const onTask = (id, lines) => {
    lastReport = Date.now();
    const summary = summarizeTaskOutput(lines);
    if (results.has(id)) {
      // More of a task that was already reported (turbo's failure lines after a pause): merge.
      const all = [...logs.get(id), ...lines];
      logs.set(id, all);
      const merged = summarizeTaskOutput(all);
      results.set(id, merged);
      if (merged.failed) print(lines.map((line) => `  ${id}: ${line}`).join('\n'));
      return;
    }
    results.set(id, summary);
    logs.set(id, lines);
    print(formatTaskLine({ id, summary, done: results.size, total: taskIds.length, elapsedMs: elapsed() }));
    for (const note of summary.skipNotes) print(`       ${note}`);
    if (summary.failed) print(lines.map((line) => `  ${id}: ${line}`).join('\n'));
  };
  const onOther = (line) => {
    const path = /^\s*Summary:\s+(\S+\.json)\s*$/.exec(line);
    if (path) summaryPath = path[1];
  };
  const reader = createGroupedLogReader({ taskIds, onTask, onOther });
  let pause = null;
  const quiet = setInterval(() => {
    if (Date.now() - lastReport < QUIET_MS) return;
    lastReport = Date.now();
    print(
      `[${results.size}/${taskIds.length} ${formatClock(elapsed()).padStart(5)}] still running (no task finished in the last 2 minutes)`,
    );
  }, 5_000);
  const args = [TURBO, 'run', ...TASKS, ...EXTRA, '--continue', '--output-logs=full', '--log-order=grouped', '--summarize'];
  const { code, output } = await run(process.execPath, args, (line) => {
    reader.push(line);
    clearTimeout(pause);
    // turbo writes a finished task's block at once: a pause means the block is complete.
    pause = setTimeout(reader.flush, 1_000);
  });
  clearTimeout(pause);
  clearInterval(quiet);
  reader.flush();
  const runSummary = summaryPath !== null && existsSync(summaryPath) ? JSON.parse(readFileSync(summaryPath, 'utf8')) : { tasks: [] };
  if (code !== 0 && results.size === 0) print(output.join('\n'));
  return { code, results, tasks: tasksOfRunSummary(runSummary) };
}

/** The checks that run on turbo's builds, each reported in one line (its output in full when it fails). */
function releaseSteps() {
  const scriptTests = readdirSync(join(ROOT, 'scripts'))
    .filter((file) => file.endsWith('.test.mjs'))
    .sort()
    .map((file) => join('scripts', file));
  return [
    { name: 'release check', args: ['scripts/check-release.mjs'], live: true, needsBuilds: true },
    { name: 'shipped text', args: ['scripts/check-shipped-text.mjs'] },
    { name: 'line length', args: ['scripts/check-line-length.mjs'] },
    { name: 'README snippets', args: ['scripts/check-readme-snippets.mjs', '--built'], needsBuilds: true },
    { name: 'script tests', args: ['--test', ...scriptTests] },
  ];
}

async function runStep(step) {
  const stepStarted = Date.now();
  const { code, output } = await run(process.execPath, step.args, step.live ? (line) => print(`       ${line}`) : undefined);
  const ms = Date.now() - stepStarted;
  const ok = code === 0;
  print(
    `[${formatClock(elapsed()).padStart(5)}] ${ok ? 'ok  ' : 'FAIL'} ${step.name} (node ${step.args.join(' ')}) in ${formatDuration(ms)}`,
  );
  if (!ok && !step.live) print(output.map((line) => `  ${line}`).join('\n'));
  return { name: step.name, ms, ok };
}

const scope = EXTRA.length === 0 ? 'every package' : `turbo run ${EXTRA.join(' ')}`;
print(`Lint, type-checks, tests and builds of ${scope}, then the release checks: expected ${expectedDuration()}.`);
await checkServices();
const taskIds = await plannedTasks();
print(`turbo: ${taskIds.length} tasks, two at a time; one line as each finishes, a failing task's log in full.`);
const turbo = await runTurbo(taskIds);
const steps = [];
for (const step of releaseSteps()) {
  if (step.needsBuilds && (turbo.code !== 0 || EXTRA.length > 0)) {
    print(`[${formatClock(elapsed()).padStart(5)}] --   ${step.name}: not run (${turbo.code !== 0 ? 'turbo failed' : 'a filtered run'})`);
    continue;
  }
  steps.push(await runStep(step));
}
for (const line of formatFinalSummary({ tasks: turbo.tasks, results: turbo.results, steps, wallMs: elapsed() })) print(line);

const ok = turbo.code === 0 && steps.every((step) => step.ok);
if (ok && EXTRA.length === 0) {
  mkdirSync(join(ROOT, '.turbo'), { recursive: true });
  writeFileSync(LAST_RUN, `${JSON.stringify({ ms: elapsed(), finishedAt: new Date().toISOString().slice(0, 16).replace('T', ' ') })}\n`);
}
process.exitCode = ok ? 0 : 1;
