#!/usr/bin/env node
// Prints the per-file table of docs/mutation.md from the reports `pnpm mutation` left under
// reports/mutation/: for every mutated file, the newest report that covers it (a one-file run or a
// whole-package run). The score is Stryker's: detected (killed + timed out) over detected +
// survived + no coverage; mutants disabled by a `Stryker disable` comment are not counted.
//
//   node scripts/mutation-summary.mjs
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, 'reports', 'mutation');

function findReports(folder) {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return findReports(path);
    return entry.name === 'mutation.json' ? [path] : [];
  });
}

const newest = new Map();
for (const path of findReports(reports)) {
  const packageName = relative(reports, path).split(/[\\/]/)[0];
  const runPath = join(dirname(path), 'run.json');
  const run = existsSync(runPath) ? JSON.parse(readFileSync(runPath, 'utf8')) : null;
  const time = statSync(path).mtime;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  for (const [file, result] of Object.entries(report.files)) {
    const key = `${packageName}/${file}`;
    if ((newest.get(key)?.time ?? 0) >= time) continue;
    newest.set(key, { packageName, file, time, run, mutants: result.mutants });
  }
}

// Configured files without a report yet get a "not run yet" row.
delete process.env.MILPA_MUTATE;
for (const packageName of ['tool-runtime', 'verification', 'mcp']) {
  const config = (await import(pathToFileURL(join(root, 'packages', packageName, 'stryker.config.mjs')).href)).default;
  for (const file of config.mutate) {
    if (!newest.has(`${packageName}/${file}`)) newest.set(`${packageName}/${file}`, { packageName, file, mutants: null });
  }
}

const lines = [
  '| package | file | killed | timed out | survived | no coverage | ignored | score | date | run time |',
  '|---|---|---|---|---|---|---|---|---|---|',
];
for (const { packageName, file, time, run, mutants } of [...newest.values()].sort((a, b) =>
  `${a.packageName}/${a.file}`.localeCompare(`${b.packageName}/${b.file}`),
)) {
  if (mutants === null) {
    lines.push(`| ${packageName} | ${file} | not run yet | | | | | | | |`);
    continue;
  }
  const count = (status) => mutants.filter((mutant) => mutant.status === status).length;
  const killed = count('Killed');
  const timedOut = count('Timeout');
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const ignored = count('Ignored');
  const valid = killed + timedOut + survived + noCoverage;
  const score = valid === 0 ? 'n/a' : `${((100 * (killed + timedOut)) / valid).toFixed(1)} %`;
  const runTime = run === null ? '?' : `${Math.floor(run.seconds / 60)} min ${run.seconds % 60} s`;
  lines.push(
    `| ${packageName} | ${file} | ${killed} | ${timedOut} | ${survived} | ${noCoverage} | ${ignored} | ${score} | ` +
      `${time.toISOString().slice(0, 10)} | ${runTime} |`,
  );
}
console.log(lines.join('\n'));
