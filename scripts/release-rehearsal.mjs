#!/usr/bin/env node
// A release rehearsal: what a user gets from `npm install` once the packages are released.
//
//   1. the published packages, versioned by the pending changesets and packed (release-tarballs.mjs;
//      `--tarballs=DIR` reuses the tarballs the release check packed there);
//   2. published with `npm publish` to a Verdaccio registry this script starts on 127.0.0.1 (a free
//      port, storage in a temporary directory, serving `@milpa/*` only);
//   3. installed in a fresh project (`npm init -y`, ESM) with plain `npm install` — no workspace, no
//      overrides — `@milpa/*` from that registry and everything else from the npm registry, as the
//      Install sections of the rehearsed packages' READMEs say, plus TypeScript 7 and @types/node;
//   4. each rehearsed README's main example (its first code block under `## Usage`) type-checked
//      with TypeScript 5 (the repository's) and TypeScript 7, each with the tsconfig.json its
//      `tsc --init` writes, adjusted only as that file and the READMEs tell Node users; the examples
//      that need no model or service are then run with node (tsx).
//
// Prints one line when all is well; otherwise what failed, then that line. Verdaccio is stopped and
// the temporary directories are removed however it ends.
//
//   node scripts/release-rehearsal.mjs [--tarballs=DIR]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { extractSnippets, mapDiagnostics, RUN_TIMEOUT_MS, runBounded, runSnippet } from './check-readme-snippets.mjs';
import { packVersionedTarballs, readPackedTarballs } from './release-tarballs.mjs';

/** The packages whose README a user follows in the rehearsal, by their directory under packages/. */
export const REHEARSED_PACKAGES = Object.freeze(['tool-runtime', 'tools', 'mcp', 'ai-sdk', 'openai-agents', 'langchain']);

/** The native TypeScript compiler the rehearsal also type-checks with (the version `npm install typescript` gives today). */
export const TYPESCRIPT_7 = '7.0.2';

/** The Node types a user on Node 20 installs (`tsc --init` says: `npm install -D @types/node`). */
export const TYPES_NODE = '@types/node@20';

/** How long one npm command may take before the rehearsal gives up (generous: a loaded machine, a cold cache). */
export const NPM_TIMEOUT_MS = 300_000;

/** How long Verdaccio may take to answer after it is started. */
export const VERDACCIO_START_TIMEOUT_MS = 60_000;

const OPTIONAL_INSTALL = /\boptional\b|\bonly for\b/i;

/**
 * The packages a README's `## Install` section tells users to install: every name on its
 * `npm install` lines, less those marked optional (a trailing or preceding comment saying
 * "optional" or "only for").
 *
 * @param {string} markdown
 * @returns {string[]} in order of appearance, each once
 */
export function installSpecsOf(markdown) {
  const section = /^## Install\s*$([\s\S]*?)(?=^## )/m.exec(`${markdown}\n## `)?.[1] ?? '';
  const names = [];
  let optionalNext = false;
  for (const raw of section.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#')) {
      optionalNext = OPTIONAL_INSTALL.test(line);
      continue;
    }
    const command = /^npm (?:install|i|add)\s+(.*)$/.exec(line);
    if (command === null) continue;
    const [words, comment = ''] = command[1].split(/\s#/, 2);
    const optional = optionalNext || OPTIONAL_INSTALL.test(comment);
    optionalNext = false;
    if (optional) continue;
    for (const word of words.split(/\s+/)) {
      if (word !== '' && !word.startsWith('-') && !names.includes(word)) names.push(word);
    }
  }
  return names;
}

/**
 * A README's main example: the first checked code block under its `## Usage` heading.
 *
 * @param {string} markdown
 * @returns {ReturnType<typeof extractSnippets>[number] | null}
 */
export function mainExampleOf(markdown) {
  const usage = markdown.split(/\r?\n/).findIndex((line) => /^## Usage\s*$/.test(line));
  if (usage === -1) return null;
  return extractSnippets(markdown).find((snippet) => snippet.line > usage + 1 && snippet.mode !== 'skip') ?? null;
}

/**
 * What is wrong with the manifests of a release, as published: they must share one version, other
 * than 0.0.0, with no `workspace:` or `catalog:` specifier left and every dependency on a sibling
 * asking for that version.
 *
 * @param {Record<string, any>[]} manifests the package.json of every published package
 * @returns {string[]}
 */
export function publishedManifestProblems(manifests) {
  const problems = [];
  const versions = [...new Set(manifests.map((manifest) => manifest.version))];
  if (versions.length !== 1) problems.push(`the packages do not share one version: ${versions.join(', ')}`);
  const names = new Set(manifests.map((manifest) => manifest.name));
  for (const manifest of manifests) {
    if (manifest.version === '0.0.0') problems.push(`${manifest.name}: version 0.0.0 (the pending changesets were not applied)`);
    if (/"(?:workspace|catalog):/.test(JSON.stringify(manifest)))
      problems.push(`${manifest.name}: a workspace: or catalog: specifier remains`);
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
        if (names.has(dependency) && range !== `^${manifest.version}`) {
          problems.push(`${manifest.name}: ${field}.${dependency} is "${range}", expected "^${manifest.version}"`);
        }
      }
    }
  }
  return problems;
}

/**
 * The tsconfig a user ends up with: what `tsc --init` wrote, adjusted only as it and the READMEs
 * say for Node (its comment: `"types": ["node"]`; the `@tool` decorator needs a `target` below
 * `esnext`, which also leaves the `lib` to the target), checking `files` without emitting.
 *
 * @param {Record<string, any>} initConfig the parsed tsconfig.json `tsc --init` wrote
 * @param {string[]} files
 * @returns {Record<string, any>}
 */
export function userTsconfig(initConfig, files) {
  const compilerOptions = { ...initConfig.compilerOptions, types: ['node'], noEmit: true };
  if (String(compilerOptions.target).toLowerCase() === 'esnext') compilerOptions.target = 'es2022';
  return { compilerOptions, files };
}

/**
 * Verdaccio's configuration: `@milpa/*` stored in `storage`, published by signed-in users (`htpasswd`),
 * read by anyone; no uplink, so nothing else is served and a Milpa package can only come from here.
 *
 * @param {{ storage: string, htpasswd: string }} paths
 * @returns {string} YAML
 */
export function verdaccioConfig({ storage, htpasswd }) {
  return [
    `storage: ${JSON.stringify(storage)}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(htpasswd)}`,
    'uplinks: {}',
    'packages:',
    "  '@milpa/*':",
    '    access: $all',
    '    publish: $authenticated',
    'web:',
    '  enable: false',
    'max_body_size: 100mb',
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n');
}

/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs a command and collects its output; never rejects for a non-zero exit. */
function exec(command, args, { cwd, timeoutMs = NPM_TIMEOUT_MS, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, output: `${output}${error.message}` });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, output: output.trim() });
    });
  });
}

/** npm, the one that came with this Node when it is there (`npm` on PATH otherwise). */
function npm(args, options) {
  const execPath = process.env['npm_execpath'];
  if (execPath !== undefined && /npm-cli\.js$/.test(execPath)) return exec(process.execPath, [execPath, ...args], options);
  return exec('npm', args, options);
}

/** Thrown for a failure the rehearsal reports in one line (its `detail`, when there is one, follows). */
class RehearsalError extends Error {
  /** @param {string} message @param {string} [detail] */
  constructor(message, detail = '') {
    super(message);
    this.name = 'RehearsalError';
    this.detail = detail;
  }
}

/** Answers whether the npm registry users install third-party packages from can be reached. */
async function checkNpmRegistry(cwd) {
  const configured = await npm(['config', 'get', 'registry'], { cwd, timeoutMs: 60_000 });
  const registry = configured.ok && /^https?:\/\//.test(configured.output) ? configured.output : 'https://registry.npmjs.org/';
  try {
    await fetch(registry, { method: 'HEAD', signal: AbortSignal.timeout(20_000) });
  } catch (error) {
    throw new RehearsalError(
      `the npm registry ${registry} is unreachable (${error.cause?.code ?? error.cause?.message ?? error.message}): ` +
        'the rehearsal installs the third-party dependencies from it',
    );
  }
  return registry;
}

/** Starts Verdaccio on a free loopback port; resolves once it answers. */
async function startVerdaccio(root, directory) {
  mkdirSync(directory, { recursive: true });
  const config = join(directory, 'config.yaml');
  writeFileSync(config, verdaccioConfig({ storage: join(directory, 'storage'), htpasswd: join(directory, 'htpasswd') }));
  const port = await freePort();
  const require = createRequire(join(root, 'package.json'));
  const bin = join(realpathSync(join(require.resolve('verdaccio/package.json'), '..')), 'bin', 'verdaccio');
  const child = spawn(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], {
    cwd: directory,
    env: { ...process.env, NODE_NO_WARNINGS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  let exited = false;
  child.once('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}/`;
  const until = Date.now() + VERDACCIO_START_TIMEOUT_MS;
  while (!exited && Date.now() < until) {
    try {
      if ((await fetch(`${url}-/ping`, { signal: AbortSignal.timeout(5_000) })).ok) return { child, url, port };
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  child.kill('SIGKILL');
  throw new RehearsalError(
    `Verdaccio did not answer on ${url} ${exited ? '(it exited)' : `within ${VERDACCIO_START_TIMEOUT_MS / 1000} s`}`,
    output,
  );
}

/** Stops Verdaccio and waits for it to exit. */
async function stopVerdaccio(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Signs a user up with Verdaccio's htpasswd and returns its token. */
async function createToken(url) {
  const name = 'rehearsal';
  const response = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ _id: `org.couchdb.user:${name}`, name, password: crypto.randomUUID(), type: 'user', roles: [] }),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok || typeof body.token !== 'string') {
    throw new RehearsalError(`Verdaccio did not sign the rehearsal user up (HTTP ${response.status})`, JSON.stringify(body));
  }
  return body.token;
}

/** The tsconfig.json that `tsc --init` of the compiler `tsc` writes, parsed. */
async function initConfigOf(ts, tsc, directory) {
  mkdirSync(directory, { recursive: true });
  const init = await exec(process.execPath, [tsc, '--init'], { cwd: directory, timeoutMs: 60_000 });
  if (!init.ok) throw new RehearsalError(`tsc --init failed (${tsc})`, init.output);
  const { config, error } = ts.parseConfigFileTextToJson('tsconfig.json', readFileSync(join(directory, 'tsconfig.json'), 'utf8'));
  if (error !== undefined) throw new RehearsalError(`the tsconfig.json of tsc --init (${tsc}) does not parse`);
  return config;
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const formatTimes = (times) =>
  Object.entries(times)
    .map(([name, ms]) => `${name} ${seconds(ms)}`)
    .join(', ');

/**
 * Runs the rehearsal.
 *
 * @param {string} root the workspace root, its packages built
 * @param {{ tarballs?: string }} [options] `tarballs`: a directory the release check packed into
 *   (`--keep-tarballs`); without it the packages are packed here
 * @returns {Promise<string>} the summary line
 */
export async function rehearseRelease(root, { tarballs: tarballDir } = {}) {
  const started = Date.now();
  const times = {};
  const lap = (name, from) => {
    times[name] = Date.now() - from;
    return Date.now();
  };
  const work = mkdtempSync(join(tmpdir(), 'milpa-release-rehearsal-'));
  const project = join(work, 'project');
  mkdirSync(project);
  let verdaccio = null;
  const stopOnSignal = (signal) => {
    verdaccio?.child.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  try {
    return await rehearse();
  } catch (error) {
    if (error instanceof RehearsalError) {
      const phases = formatTimes(times);
      error.message += ` (after ${seconds(Date.now() - started)}${phases === '' ? '' : `: ${phases}`})`;
    }
    throw error;
  } finally {
    process.off('SIGINT', stopOnSignal);
    process.off('SIGTERM', stopOnSignal);
    if (verdaccio !== null) await stopVerdaccio(verdaccio.child);
    rmSync(work, { recursive: true, force: true });
  }

  async function rehearse() {
    let at = Date.now();
    const npmRegistry = await checkNpmRegistry(project);

    let tarballs = tarballDir === undefined ? null : readPackedTarballs(tarballDir);
    if (tarballDir !== undefined && tarballs === null) throw new RehearsalError(`no packed tarballs in ${tarballDir}`);
    if (tarballs === null) {
      mkdirSync(join(work, 'tarballs'));
      const packing = packVersionedTarballs(root, join(work, 'tarballs'));
      if (!packing.ok) throw new RehearsalError('the packages could not be packed', packing.problem);
      tarballs = packing.tarballs;
    }
    at = lap('pack', at);

    verdaccio = await startVerdaccio(root, join(work, 'verdaccio'));
    const token = await createToken(verdaccio.url);
    const host = verdaccio.url.replace(/^http:/, '');
    writeFileSync(join(project, '.npmrc'), `@milpa:registry=${verdaccio.url}\n${host}:_authToken=${token}\n`);
    at = lap('registry', at);

    const published = await runBounded(
      tarballs.map(
        ({ tarball }) =>
          () =>
            npm(['publish', tarball, '--registry', verdaccio.url, '--provenance=false', '--access', 'public'], {
              cwd: project,
            }),
      ),
      3,
    );
    const refused = published.map((result, index) => ({ ...result, name: tarballs[index].name })).filter((result) => !result.ok);
    if (refused.length > 0) {
      throw new RehearsalError(
        `npm publish failed for ${refused.map(({ name }) => name).join(', ')}`,
        refused.map(({ name, output }) => `${name}:\n${output}`).join('\n'),
      );
    }
    at = lap('publish', at);

    const readmes = REHEARSED_PACKAGES.map((dirName) => ({
      dirName,
      readme: `packages/${dirName}/README.md`,
      markdown: readFileSync(join(root, 'packages', dirName, 'README.md'), 'utf8'),
    }));
    const rehearsedNames = REHEARSED_PACKAGES.map((dirName) => tarballs.find((entry) => entry.dirName === dirName)?.name);
    const specs = [...new Set([...rehearsedNames, ...readmes.flatMap(({ markdown }) => installSpecsOf(markdown))])];
    const init = await npm(['init', '-y'], { cwd: project, timeoutMs: 60_000 });
    if (!init.ok) throw new RehearsalError('npm init -y failed', init.output);
    // ESM, as the READMEs ask (`npm pkg set type=module`, without starting npm again).
    const manifestPath = join(project, 'package.json');
    writeFileSync(manifestPath, `${JSON.stringify({ ...JSON.parse(readFileSync(manifestPath, 'utf8')), type: 'module' }, null, 2)}\n`);
    const install = await npm(['install', '--no-audit', '--no-fund', ...specs, `typescript@${TYPESCRIPT_7}`, TYPES_NODE], { cwd: project });
    if (!install.ok) throw new RehearsalError(`npm install failed (from ${verdaccio.url} and ${npmRegistry})`, install.output);
    const listed = await npm(['ls', '--all'], { cwd: project, timeoutMs: 60_000 });
    if (!listed.ok) {
      const problems = listed.output.split('\n').filter((line) => /\b(?:invalid|missing|extraneous)\b|^npm error/.test(line));
      throw new RehearsalError('npm ls --all finds problems in the installed tree', problems.join('\n'));
    }
    const installedManifests = tarballs
      .map(({ name }) => join(project, 'node_modules', name, 'package.json'))
      .filter((path) => {
        try {
          readFileSync(path);
          return true;
        } catch {
          return false;
        }
      })
      .map((path) => JSON.parse(readFileSync(path, 'utf8')));
    const manifestProblems = publishedManifestProblems(installedManifests);
    for (const { name, version } of installedManifests) {
      const packed = tarballs.find((entry) => entry.name === name);
      if (packed.version !== version) manifestProblems.push(`${name}: installed ${version}, published ${packed.version}`);
    }
    if (manifestProblems.length > 0) throw new RehearsalError('the installed manifests are not releasable', manifestProblems.join('\n'));
    const installedCount = (install.output.match(/added (\d+) packages?/) ?? [])[1] ?? '?';
    at = lap('install', at);

    const files = new Map();
    const runs = [];
    for (const { dirName, readme, markdown } of readmes) {
      const example = mainExampleOf(markdown);
      if (example === null) throw new RehearsalError(`${readme} has no code block under ## Usage`);
      const file = join(project, `${dirName}-readme.${example.language}`);
      writeFileSync(file, example.code);
      files.set(file, { readme, line: example.line });
      if (example.mode === 'run') runs.push(file);
    }
    const rootRequire = createRequire(join(root, 'package.json'));
    const ts = rootRequire('typescript');
    const compilers = [
      { label: `TypeScript ${ts.version}`, tsc: rootRequire.resolve('typescript/bin/tsc'), key: '5' },
      { label: `TypeScript ${TYPESCRIPT_7}`, tsc: join(project, 'node_modules', 'typescript', 'bin', 'tsc'), key: '7' },
    ];
    const checks = await Promise.all(
      compilers.map(async ({ label, tsc, key }) => {
        const config = userTsconfig(await initConfigOf(ts, tsc, join(work, `init-${key}`)), [...files.keys()]);
        const path = join(project, `tsconfig.typescript-${key}.json`);
        writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
        const checked = await exec(process.execPath, [tsc, '--pretty', 'false', '-p', path], { cwd: project });
        return { label, ok: checked.ok, diagnostics: checked.ok ? [] : mapDiagnostics(checked.output, files) };
      }),
    );
    const failedChecks = checks.filter((check) => !check.ok);
    if (failedChecks.length > 0) {
      throw new RehearsalError(
        `README main examples do not type-check with ${failedChecks.map(({ label }) => label).join(' and ')}`,
        failedChecks.map(({ label, diagnostics }) => `${label}:\n${diagnostics.join('\n')}`).join('\n'),
      );
    }
    at = lap('type-check', at);

    const tsxLoader = pathToFileURL(rootRequire.resolve('tsx/esm')).href;
    const results = await runBounded(
      runs.map((file) => () => runSnippet(file, tsxLoader, RUN_TIMEOUT_MS, true)),
      2,
    );
    const failedRuns = results
      .map((result, index) => ({ ...result, origin: files.get(runs[index]) }))
      .filter((result) => result.code !== 0 || result.timedOut);
    if (failedRuns.length > 0) {
      throw new RehearsalError(
        `README main examples fail when run: ${failedRuns.map(({ origin }) => `${origin.readme}:${origin.line}`).join(', ')}`,
        failedRuns
          .map(({ origin, output }) => `${origin.readme}:${origin.line}:\n${output.trimEnd().split('\n').slice(-15).join('\n')}`)
          .join('\n'),
      );
    }
    lap('run', at);

    const version = tarballs[0].version;
    const notRun = [...files.entries()].filter(([file]) => !runs.includes(file)).map(([, { readme }]) => readme.split('/')[1]);
    return (
      `release rehearsal: ${tarballs.length} packages at ${version} published to Verdaccio on 127.0.0.1:${verdaccio.port}; ` +
      `npm install of ${specs.length} packages (${installedCount} in all) in a fresh project; ` +
      `${files.size} README main examples type-check with ${compilers.map(({ label }) => label).join(' and ')}, ${runs.length} run` +
      `${notRun.length > 0 ? ` (${notRun.join(', ')}: need a model, type-checked only)` : ''}; in ${seconds(Date.now() - started)} ` +
      `(${formatTimes(times)})`
    );
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const tarballs = process.argv.find((argument) => argument.startsWith('--tarballs='))?.slice('--tarballs='.length);
  try {
    console.log(await rehearseRelease(root, { tarballs }));
  } catch (error) {
    if (!(error instanceof RehearsalError)) throw error;
    if (error.detail !== '') console.error(error.detail);
    console.error(`release rehearsal failed: ${error.message}`);
    process.exitCode = 1;
  }
}
