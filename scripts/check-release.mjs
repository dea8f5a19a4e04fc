#!/usr/bin/env node
// Checks what users would install: packs every published package (packages/*) with `pnpm pack`,
// exactly as `pnpm publish` would, at the version the pending changesets give it (versioned in a
// temporary copy: release-tarballs.mjs), and inspects the tarballs. Run after the build (`pnpm test`
// runs it after turbo's build, with `--keep-tarballs=DIR` so the release rehearsal publishes these
// same tarballs); exits non-zero and lists every problem found.
//
// For each tarball:
//   - contents: dist/ (and a package's bin/ launcher), LICENSE and README.md; no src/, no tests;
//   - package.json: no `@milpa/source` condition, no `workspace:`/`catalog:` specifiers, runtime
//     dependencies as `^` ranges, repository/homepage/bugs/keywords/license filled in;
//   - dist/*.js: Node built-ins imported with their `node:` prefix, no package.json inlined;
//   - a top-level `types` field for the main entry and `typesVersions` for each subpath, so projects on
//     `moduleResolution: node10` find the types;
//   - `publint --strict` and `attw` (Are The Types Wrong) pass for node10, node16 (ESM) and bundler
//     resolution; a CommonJS `require` of these ESM-only packages is the one accepted finding.
// Then a consumer that imports the packages type-checks under `skipLibCheck: false` with only the
// packages' declared dependencies installed (so a published type that needs, say, `@types/express`
// fails here). Errors located inside third-party declaration files are reported but not counted.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkTypesFields } from './check-types-fields.mjs';
import { packVersionedTarballs, publishedPackages, run } from './release-tarballs.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REPOSITORY_URL = 'git+https://github.com/milpa-ts/milpa-ts.git';

/** The command-line entry of a root devDependency (their `bin` files are not in their `exports`). */
function binOf(packageName) {
  const packageDir = join(ROOT, 'node_modules', packageName);
  const { bin } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  return join(packageDir, typeof bin === 'string' ? bin : Object.values(bin)[0]);
}

/** Every file under `dir`, relative to it, with forward slashes. */
function listFiles(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? listFiles(path, base) : [relative(base, path).split('\\').join('/')];
  });
}

const BUILTINS = new Set(builtinModules.filter((name) => !name.startsWith('_')));
const IMPORT_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"']+)["']/g;

function checkContents(name, files) {
  const problems = [];
  for (const required of ['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts']) {
    if (!files.includes(required)) problems.push(`${name}: the tarball has no ${required}`);
  }
  for (const file of files) {
    if (file.startsWith('src/')) problems.push(`${name}: the tarball ships source file ${file} (only dist/ is published)`);
    if (/\.test\.[cm]?[jt]s$/.test(file)) problems.push(`${name}: the tarball ships test file ${file}`);
  }
  return problems;
}

function checkManifest(name, dirName, manifest) {
  const problems = [];
  const text = JSON.stringify(manifest);
  if (text.includes('@milpa/source'))
    problems.push(
      `${name}: the published package.json still has the @milpa/source condition (publishConfig.exports must override exports)`,
    );
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
      if (!range.startsWith('^')) problems.push(`${name}: ${field}.${dependency} is "${range}", expected a ^ range`);
    }
  }
  if (/"(?:workspace|catalog):/.test(text))
    problems.push(`${name}: the published package.json has an unresolved workspace: or catalog: specifier`);
  if (manifest.license !== 'Apache-2.0') problems.push(`${name}: license is ${manifest.license}, expected Apache-2.0`);
  if (
    manifest.repository?.type !== 'git' ||
    manifest.repository?.url !== REPOSITORY_URL ||
    manifest.repository?.directory !== `packages/${dirName}`
  ) {
    problems.push(`${name}: repository must be { type: git, url: ${REPOSITORY_URL}, directory: packages/${dirName} }`);
  }
  problems.push(...checkTypesFields(name, manifest));
  if (typeof manifest.homepage !== 'string' || !manifest.homepage.startsWith('https://')) problems.push(`${name}: no homepage`);
  if (typeof manifest.bugs?.url !== 'string') problems.push(`${name}: no bugs.url`);
  if (!Array.isArray(manifest.keywords) || manifest.keywords.length === 0) problems.push(`${name}: no keywords`);
  return problems;
}

function checkBuiltJavaScript(name, packageDir, files) {
  const problems = [];
  for (const file of files.filter((path) => path.startsWith('dist/') && path.endsWith('.js'))) {
    const code = readFileSync(join(packageDir, file), 'utf8');
    for (const [, specifier] of code.matchAll(IMPORT_SPECIFIER)) {
      if (BUILTINS.has(specifier.split('/')[0] ?? '')) problems.push(`${name}: ${file} imports '${specifier}' without the node: prefix`);
    }
    // A bundled `import packageJson from '../package.json'` carries every field, devDependencies too.
    // It shows as a `devDependencies: {` object literal; code that merely reads a manifest's field does not.
    if (/["']?devDependencies["']?\s*:\s*\{/.test(code)) problems.push(`${name}: ${file} has package.json inlined`);
    if (/\bMILPA_[A-Z_]+_VERSION\b/.test(code))
      problems.push(`${name}: ${file} still reads a version constant the build should have defined`);
  }
  return problems;
}

const SDK = '@modelcontextprotocol/sdk';

/**
 * Splits tsc's output into diagnostics that concern us (the consumer, our own declarations, or no
 * file at all) and diagnostics located inside a third-party package's declarations. The agent
 * frameworks our adapters take as peers (`ai`, `@openai/agents`, `@langchain/core`) ship
 * declarations that do not compile under this consumer's strict options (`exactOptionalPropertyTypes`,
 * no DOM library); their users run with `skipLibCheck`, and nothing we publish can change those
 * files. A missing dependency of ours still fails: it is reported in our own declaration file.
 */
function splitDiagnostics(output) {
  const diagnostics = [];
  for (const line of output.split('\n')) {
    if (/^\s/.test(line) && diagnostics.length > 0) diagnostics[diagnostics.length - 1] += `\n${line}`;
    else if (line.trim() !== '') diagnostics.push(line);
  }
  const isForeign = (diagnostic) => {
    const file = /^(.+?)\(\d+,\d+\): error TS\d+/.exec(diagnostic)?.[1];
    return file !== undefined && /(^|\/)node_modules\//.test(file) && !/(^|\/)node_modules\/@milpa\//.test(file);
  };
  return { ours: diagnostics.filter((diagnostic) => !isForeign(diagnostic)), foreign: diagnostics.filter(isForeign) };
}

/**
 * A consumer with the tarballs and their declared dependencies only, type-checked with skipLibCheck
 * off: once with every package and the DOM library (the MCP SDK's own declarations use DOM's
 * `HeadersInit`, so every program that type-checks the SDK needs it), once with the packages that
 * do not reach the SDK and no DOM, so they are known to need nothing beyond `@types/node`.
 */
/** The import specifiers of a package's entry points: `name` for `.`, `name/x` for each `./x` subpath. */
function entryPointsOf(name, manifest) {
  const keys = typeof manifest.exports === 'object' && manifest.exports !== null ? Object.keys(manifest.exports) : ['.'];
  return keys
    .filter((key) => key === '.' || (key.startsWith('./') && key !== './package.json' && !key.includes('*')))
    .map((key) => (key === '.' ? name : `${name}/${key.slice(2)}`));
}

function checkConsumerTypes(packed, workDir) {
  const consumer = join(workDir, 'consumer');
  const nodeModules = join(consumer, 'node_modules');
  mkdirSync(nodeModules, { recursive: true });
  const link = (name, target) => {
    const path = join(nodeModules, name);
    if (existsSync(path)) return;
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(realpathSync(target), path, 'dir');
  };
  for (const { name, extractedDir, sourceDir, manifest } of packed) {
    cpSync(extractedDir, join(nodeModules, name), { recursive: true });
    for (const dependency of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
      if (!packed.some((other) => other.name === dependency)) link(dependency, join(sourceDir, 'node_modules', dependency));
    }
  }
  link('@types/node', join(packed[0].sourceDir, 'node_modules', '@types', 'node'));
  writeFileSync(join(consumer, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module' })}\n`);

  const reachesSdk = (name) => {
    const { manifest } = packed.find((candidate) => candidate.name === name);
    const dependencies = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
    return (
      dependencies.includes(SDK) ||
      dependencies.some((dependency) => packed.some((other) => other.name === dependency) && reachesSdk(dependency))
    );
  };
  const programs = [
    { label: 'all packages, lib ES2023 + DOM', names: packed.map(({ name }) => name), lib: ['ES2023', 'DOM'] },
    {
      label: 'packages without the MCP SDK, lib ES2023 only',
      names: packed.map(({ name }) => name).filter((name) => !reachesSdk(name)),
      lib: ['ES2023'],
    },
  ];
  const problems = [];
  for (const [index, { label, names, lib }] of programs.entries()) {
    const entry = `consumer-${index}.ts`;
    // Every entry point a package opens (its main entry and each subpath), not only the main one.
    const specifiers = names.flatMap((name) => entryPointsOf(name, packed.find((candidate) => candidate.name === name).manifest));
    const imports = specifiers.map((specifier, position) => `import * as package${position} from '${specifier}';`);
    writeFileSync(
      join(consumer, entry),
      `${imports.join('\n')}\n\nexport const loaded = [${specifiers.map((_, position) => `package${position}`).join(', ')}];\n`,
    );
    const tsconfig = join(consumer, `tsconfig-${index}.json`);
    const compilerOptions = {
      target: 'ES2022',
      lib,
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      verbatimModuleSyntax: true,
      skipLibCheck: false,
      types: ['node'],
      noEmit: true,
    };
    writeFileSync(tsconfig, `${JSON.stringify({ compilerOptions, files: [entry] }, null, 2)}\n`);
    const tsc = run(process.execPath, [binOf('typescript'), '-p', tsconfig]);
    const { ours, foreign } = splitDiagnostics(tsc.output);
    const ok = tsc.ok || (ours.length === 0 && foreign.length > 0);
    const note = foreign.length > 0 ? ` [${foreign.length} error(s) inside third-party declarations not counted]` : '';
    process.stdout.write(
      `${ok ? 'ok  ' : 'FAIL'} a consumer type-checks with skipLibCheck: false (${label}: ${names.join(', ')})${note}\n`,
    );
    if (!ok) problems.push(`a consumer (${label}) does not type-check with skipLibCheck: false:\n${ours.join('\n')}`);
  }
  return problems;
}

const packages = publishedPackages(ROOT);
const workDir = mkdtempSync(join(tmpdir(), 'milpa-release-check-'));
// `--keep-tarballs=DIR` leaves the tarballs in DIR for the release rehearsal, so they are packed once.
const keep = process.argv.find((argument) => argument.startsWith('--keep-tarballs='))?.slice('--keep-tarballs='.length);
const problems = [];
const packed = [];
try {
  const tarballDir = keep ?? join(workDir, 'tarballs');
  mkdirSync(tarballDir, { recursive: true });
  const packing = packVersionedTarballs(ROOT, tarballDir);
  if (!packing.ok) problems.push(packing.problem);
  for (const { name, dirName, tarball: tarballPath } of packing.ok ? packing.tarballs : []) {
    const dir = join(ROOT, 'packages', dirName);
    const destination = join(workDir, dirName);
    mkdirSync(destination);
    const untar = run('tar', ['-xzf', tarballPath], { cwd: destination });
    if (!untar.ok) {
      problems.push(`${name}: could not unpack ${tarballPath}:\n${untar.output}`);
      continue;
    }
    const extractedDir = join(destination, 'package');
    const files = listFiles(extractedDir);
    const published = JSON.parse(readFileSync(join(extractedDir, 'package.json'), 'utf8'));
    const found = [
      ...checkContents(name, files),
      ...checkManifest(name, dirName, published),
      ...checkBuiltJavaScript(name, extractedDir, files),
    ];
    const publint = run(process.execPath, [binOf('publint'), 'run', '--strict', tarballPath]);
    if (!publint.ok || !publint.output.includes('All good!')) found.push(`${name}: publint --strict:\n${publint.output}`);
    // Every resolution mode but a CommonJS `require`, which ESM-only packages cannot serve (node20.19+
    // users may still `require()` them; attw does not model that).
    const attw = run(process.execPath, [
      binOf('@arethetypeswrong/cli'),
      '--ignore-rules',
      'cjs-resolves-to-esm',
      '--format',
      'ascii',
      '--no-emoji',
      tarballPath,
    ]);
    if (!attw.ok) found.push(`${name}: attw --ignore-rules cjs-resolves-to-esm:\n${attw.output}`);
    problems.push(...found);
    packed.push({ name, extractedDir, sourceDir: dir, manifest: published });
    process.stdout.write(
      `${found.length === 0 ? 'ok  ' : 'FAIL'} ${name}@${published.version}: ${files.length} files; ` +
        'contents, package.json, dist, publint --strict, attw (node10, node16, bundler)\n',
    );
  }
  if (packed.length === packages.length) {
    problems.push(...checkConsumerTypes(packed, workDir));
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}

if (problems.length > 0) {
  process.stderr.write(`\nRelease check found ${problems.length} problem(s):\n${problems.map((problem) => `- ${problem}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(`Release check: all ${packages.length} published packages are ready to publish.\n`);
