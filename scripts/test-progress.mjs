// The pieces of scripts/test.mjs that read a finished task's output and write the progress lines and
// the final summary; kept free of I/O so scripts/test-progress.test.mjs can test them on recorded output.
import { stripVTControlCharacters } from 'node:util';

/** Removes ANSI colour and cursor sequences. */
export function stripAnsi(text) {
  return stripVTControlCharacters(text);
}

/** `850ms`, `12.3s`, `4m05s`. */
export function formatDuration(ms) {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${minutes}m${String(seconds).padStart(2, '0')}s`;
}

/** A wall-clock offset as `m:ss`. */
export function formatClock(ms) {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** `1.5s`, `850ms`, `2m3s` as vitest prints them, in milliseconds; null when unreadable. */
function parseVitestDuration(text) {
  let total = 0;
  let matched = false;
  for (const [, value, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)\b/g)) {
    matched = true;
    total += Number(value) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit];
  }
  return matched ? total : null;
}

/** `1 passed | 19 skipped (20)` → `{ passed: 1, skipped: 19, total: 20 }`. */
function parseCounts(text) {
  const counts = {};
  for (const [, count, word] of text.matchAll(/(\d+)\s+([a-z]+(?: [a-z]+)?)(?=\s*(?:\||\(|$))/g)) counts[word] = Number(count);
  const total = /\((\d+)\)\s*$/.exec(text);
  if (total) counts.total = Number(total[1]);
  return counts;
}

/**
 * What a finished task's output says: whether vitest counted a failed test, its counts and duration
 * when the task ran vitest, and the `[skipped] …` lines suites print
 * when they skip for want of a service or a browser.
 * @param {string[]} lines the task's output lines
 */
export function summarizeTaskOutput(lines) {
  const plain = lines.map(stripAnsi);
  const summary = { failed: false, tests: null, files: null, vitestMs: null, skipNotes: [] };
  for (const line of plain) {
    const tests = /^\s*Tests\s{2,}(.+)$/.exec(line);
    if (tests) summary.tests = parseCounts(tests[1]);
    const files = /^\s*Test Files\s{2,}(.+)$/.exec(line);
    if (files) summary.files = parseCounts(files[1]);
    const duration = /^\s*Duration\s{2,}(\S+)/.exec(line);
    if (duration) summary.vitestMs = parseVitestDuration(duration[1]);
    const skip = /^\s*(\[skipped\] .*)/.exec(line);
    if (skip?.[1] !== undefined && !summary.skipNotes.includes(skip[1])) summary.skipNotes.push(skip[1]);
  }
  if (summary.tests && (summary.tests.failed ?? 0) > 0) summary.failed = true;
  return summary;
}

/** `133 passed, 2 skipped (5 files)`, from vitest's counts; empty when the task ran no tests. */
export function describeCounts(summary) {
  if (summary.tests === null) return '';
  const order = ['failed', 'passed', 'skipped', 'todo'];
  const rank = (word) => (order.includes(word) ? order.indexOf(word) : order.length);
  const words = Object.keys(summary.tests)
    .filter((word) => word !== 'total')
    .sort((a, b) => rank(a) - rank(b))
    .map((word) => `${summary.tests[word]} ${word}`);
  const files = summary.files?.total === undefined ? '' : ` (${summary.files.total} file${summary.files.total === 1 ? '' : 's'})`;
  return `${words.join(', ')}${files}`;
}

/**
 * One progress line: `[ 7/46  1:12] ok   @milpa/events#test  133 passed (5 files) in 3.1s`.
 * @param {{ id: string, summary: ReturnType<typeof summarizeTaskOutput>, done: number, total: number, elapsedMs: number }} task
 */
export function formatTaskLine({ id, summary, done, total, elapsedMs }) {
  const width = String(total).length;
  const position = `[${String(done).padStart(width)}/${total} ${formatClock(elapsedMs).padStart(5)}]`;
  const duration = summary.vitestMs === null ? '' : `in ${formatDuration(summary.vitestMs)}`;
  const details = [describeCounts(summary), duration].filter((part) => part !== '').join(' ');
  return `${position} ${summary.failed ? 'FAIL' : 'ok  '} ${id}${details === '' ? '' : `  ${details}`}`;
}

/**
 * The closing summary: per package its tests and the time of each task, the time per kind of task,
 * the slowest tasks, the release checks, what was skipped and what failed.
 * @param {{ tasks: { id: string, package: string, task: string, ms: number, exitCode: number | null }[],
 *   results: Map<string, ReturnType<typeof summarizeTaskOutput>>,
 *   steps: { name: string, ms: number, ok: boolean }[], wallMs: number }} run
 * @returns {string[]}
 */
export function formatFinalSummary({ tasks, results, steps, wallMs }) {
  const lines = ['', 'Summary'];
  const kinds = [...new Set(tasks.map((task) => task.task))].sort();
  const packages = [...new Set(tasks.map((task) => task.package))].sort();
  const nameWidth = Math.max(8, ...packages.map((name) => name.length));
  lines.push(`  ${'package'.padEnd(nameWidth)}  ${kinds.map((kind) => kind.padStart(10)).join('')}  tests`);
  const totals = { passed: 0, failed: 0, skipped: 0 };
  for (const name of packages) {
    const cells = kinds.map((kind) => {
      const task = tasks.find((candidate) => candidate.package === name && candidate.task === kind);
      if (task === undefined) return '-'.padStart(10);
      const mark = task.exitCode !== 0 && task.exitCode !== null ? '!' : ' ';
      return `${formatDuration(task.ms)}${mark}`.padStart(10);
    });
    const counts = tasks
      .filter((task) => task.package === name)
      .map((task) => results.get(task.id))
      .find((summary) => summary?.tests);
    for (const word of Object.keys(totals)) totals[word] += counts?.tests[word] ?? 0;
    lines.push(`  ${name.padEnd(nameWidth)}  ${cells.join('')}  ${counts ? describeCounts(counts) : ''}`.trimEnd());
  }
  lines.push(`  (! failed; times are each task's own, three run at once)`);
  lines.push('');
  const perKind = kinds.map((kind) => {
    const ms = tasks.filter((task) => task.task === kind).reduce((sum, task) => sum + task.ms, 0);
    return `${kind} ${formatDuration(ms)}`;
  });
  lines.push(`  Task time by kind: ${perKind.join(', ')}`);
  const slowest = [...tasks].sort((a, b) => b.ms - a.ms).slice(0, 5);
  lines.push(`  Slowest tasks: ${slowest.map((task) => `${task.id} ${formatDuration(task.ms)}`).join(', ')}`);
  if (steps.length > 0)
    lines.push(
      `  Release checks: ${steps.map((step) => `${step.name} ${formatDuration(step.ms)}${step.ok ? '' : ' (failed)'}`).join(', ')}`,
    );
  lines.push(`  Tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  const skipNotes = [...new Set([...results.values()].flatMap((summary) => summary.skipNotes))];
  for (const note of skipNotes) lines.push(`  ${note}`);
  const failedTasks = tasks.filter((task) => task.exitCode !== 0 && task.exitCode !== null).map((task) => task.id);
  const failedSteps = steps.filter((step) => !step.ok).map((step) => step.name);
  const failures = [...failedTasks, ...failedSteps];
  lines.push(
    failures.length === 0
      ? `  All passed in ${formatDuration(wallMs)}.`
      : `  FAILED (${failures.join(', ')}) after ${formatDuration(wallMs)}.`,
  );
  return lines;
}
