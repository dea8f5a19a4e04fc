// Tests of the type-check command (`node ../../scripts/tsc7.mjs --noEmit -p tsconfig.json`, TypeScript 7),
// run by `pnpm test` (node --test scripts/*.test.mjs): every package uses it, it fails on each check
// tsconfig.base.json turns on, it accepts @milpa/core's `@tool` decorator, and TypeScript 5.9 reports
// the same diagnostics on the same files.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC5 = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Every workspace package: its directory relative to the root and its package.json. */
function workspacePackages() {
  const dirs = [
    'benchmarks',
    ...['packages', 'apps'].flatMap((parent) => readdirSync(join(ROOT, parent)).map((name) => `${parent}/${name}`)),
  ];
  return dirs
    .filter((dir) => existsSync(join(ROOT, dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) }));
}

/** The `typecheck` script as the packages under packages/ write it: the command under test. */
const TYPECHECK = JSON.parse(readFileSync(join(ROOT, 'packages', 'core', 'package.json'), 'utf8')).scripts.typecheck;

/** `file: TScode` for each error in tsc's `--pretty false` output, sorted. */
function diagnosticsOf(output) {
  return [...output.matchAll(/^(.+?)\(\d+,\d+\): error (TS\d+):/gm)].map(([, file, code]) => `${file}: ${code}`).sort();
}

// The files sit in a directory beside the packages (packages/.tsc7-probe-*), so the command's
// relative path to scripts/ holds, the repository's @types/node is found, and `@milpa/core`'s
// sources are one relative import away. A directory without package.json is no workspace package.
let probe;
const probeFile = (name, text) => writeFileSync(join(probe, name), text);

/** The probe's tsconfig.json: the repository's settings, with `compilerOptions` on top, for `include`. */
function writeProject(include, compilerOptions = {}) {
  probeFile('tsconfig.json', `${JSON.stringify({ extends: '../../tsconfig.base.json', compilerOptions, include })}\n`);
}

/** Runs the packages' typecheck command in the probe directory with extra arguments. */
function typeCheck(...args) {
  const result = spawnSync(`${TYPECHECK} --pretty false ${args.join(' ')}`, { cwd: probe, shell: true, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** TypeScript 5.9 on the same project, for comparison. */
function typeCheckWithTypeScript5(...args) {
  const result = spawnSync(process.execPath, [TSC5, '--noEmit', '-p', 'tsconfig.json', '--pretty', 'false', ...args], {
    cwd: probe,
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const TOOL_CLASS = `import { tool } from '../core/src/index.js';

export class NoteTools {
  @tool({ description: 'List saved notes' })
  listNotes() {
    return [];
  }
}
`;

// One file per check of tsconfig.base.json, each with one error that only that check reports.
const VIOLATIONS = {
  'type-error.ts': [`export const count: number = 'three';\n`, 'TS2322'],
  'strict-null-checks.ts': ['export const count: number = null;\n', 'TS2322'],
  'no-implicit-any.ts': ['export function echo(value) {\n  return value;\n}\n', 'TS7006'],
  'no-unchecked-indexed-access.ts': ['export function first(items: string[]): string {\n  return items[0];\n}\n', 'TS2322'],
  'no-implicit-override.ts': ['class Base {\n  run(): void {}\n}\nexport class Derived extends Base {\n  run(): void {}\n}\n', 'TS4114'],
  'no-implicit-returns.ts': ['export function sign(value: number) {\n  if (value > 0) return 1;\n}\n', 'TS7030'],
  'no-fallthrough.ts': [
    'export function label(value: number): string {\n  let text = "";\n  switch (value) {\n    case 0:\n      text = "zero";\n' +
      '    case 1:\n      text += "one";\n      break;\n  }\n  return text;\n}\n',
    'TS7029',
  ],
  'no-unused-locals.ts': ['export function total(): number {\n  const unused = 1;\n  return 2;\n}\n', 'TS6133'],
  'no-unused-parameters.ts': ['export function total(unused: number): number {\n  return 2;\n}\n', 'TS6133'],
  'verbatim-module-syntax.ts': [`import { RequestOptions } from 'node:http';\nexport type Options = RequestOptions;\n`, 'TS1484'],
};

describe('the typecheck command (TypeScript 7)', () => {
  before(() => {
    probe = mkdtempSync(join(ROOT, 'packages', '.tsc7-probe-'));
  });
  after(() => rmSync(probe, { recursive: true, force: true }));

  it('is every workspace package’s typecheck script', () => {
    const scripts = workspacePackages()
      .filter(({ manifest }) => manifest.scripts?.typecheck !== undefined)
      .map(({ dir, manifest }) => [dir, manifest.scripts.typecheck]);
    assert.ok(scripts.length >= 16, `only ${scripts.length} packages have a typecheck script`);
    for (const [dir, script] of scripts) {
      const toScripts = relative(join(ROOT, dir), join(ROOT, 'scripts')).split('\\').join('/');
      assert.equal(script, `node ${toScripts}/tsc7.mjs --noEmit -p tsconfig.json`, dir);
    }
  });

  it('writes each published package’s declarations after tsup', () => {
    const published = workspacePackages().filter(({ dir, manifest }) => dir.startsWith('packages/') && manifest.private !== true);
    assert.ok(published.length > 0);
    for (const { dir, manifest } of published) {
      assert.equal(manifest.scripts.build, 'tsup && node ../../scripts/tsc7.mjs -p tsconfig.build.json', dir);
    }
  });

  it('passes a file that uses @tool and Node globals under the repository settings', () => {
    writeProject(['tool-class.ts']);
    probeFile('tool-class.ts', `${TOOL_CLASS}\nexport const home: string | undefined = process.env['HOME'];\n`);
    const result = typeCheck();
    assert.equal(result.status, 0, result.output);
    assert.deepEqual(diagnosticsOf(result.output), []);
  });

  it('fails with each check’s error, as TypeScript 5.9 does', () => {
    writeProject(Object.keys(VIOLATIONS));
    for (const [name, [text]] of Object.entries(VIOLATIONS)) probeFile(name, text);
    const expected = Object.entries(VIOLATIONS)
      .map(([name, [, code]]) => `${name}: ${code}`)
      .sort();
    const result = typeCheck();
    assert.notEqual(result.status, 0);
    assert.deepEqual(diagnosticsOf(result.output), expected, result.output);
    const typeScript5 = typeCheckWithTypeScript5();
    assert.notEqual(typeScript5.status, 0);
    assert.deepEqual(diagnosticsOf(typeScript5.output), expected, typeScript5.output);
  });

  it('refuses @tool where TypeScript would emit decorators as written (target esnext), as TypeScript 5.9 does', () => {
    writeProject(['tool-class.ts'], { target: 'ESNext', lib: ['ESNext'] });
    probeFile('tool-class.ts', TOOL_CLASS);
    for (const result of [typeCheck(), typeCheckWithTypeScript5()]) {
      assert.notEqual(result.status, 0);
      assert.deepEqual(diagnosticsOf(result.output), ['tool-class.ts: TS2345'], result.output);
      assert.match(result.output, /Set \\?"target\\?" to \\?"es2022\\?"/);
    }
  });
});
