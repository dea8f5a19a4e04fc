// Tests of check-line-length.mjs on throwaway git repositories: planted long lines must be found in
// tracked source files, ignored elsewhere, and clean sources must pass. Run with `node --test scripts/`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { LINE_LIMIT, findLongLines, runCheck, scanLineLengths } from './check-line-length.mjs';

const SCRIPT = fileURLToPath(new URL('./check-line-length.mjs', import.meta.url));

const roots = [];

function git(root, ...args) {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
}

/**
 * A temporary git repository holding `files` (relative path → content), all tracked, and then
 * `untracked` files written without being added.
 */
function repository(files, untracked = {}) {
  const root = mkdtempSync(join(tmpdir(), 'check-line-length-'));
  roots.push(root);
  const write = (entries) => {
    for (const [path, content] of Object.entries(entries)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
  };
  write(files);
  git(root, 'init', '--quiet');
  git(root, 'add', '--all');
  write(untracked);
  return root;
}

const line = (length, fill = 'x') => `// ${fill.repeat(length - 3)}`;

const CLEAN = {
  'packages/core/src/index.ts': `export const a = 1;\n${line(140)}\n`,
  'scripts/tool.mjs': 'console.log(1);\n',
};

function run(root) {
  const err = [];
  const status = runCheck(root, { err: (text) => err.push(text) });
  return { status, err };
}

afterEach(() => {
  while (roots.length > 0) rmSync(roots.pop(), { recursive: true, force: true });
});

describe('findLongLines', () => {
  it('finds lines over 140 characters with their number and length, and passes a line of exactly 140', () => {
    assert.equal(LINE_LIMIT, 140);
    const text = [line(140), line(141), 'short', line(200)].join('\n');
    assert.deepEqual(findLongLines(text), [
      { line: 2, length: 141 },
      { line: 4, length: 200 },
    ]);
  });

  it('counts characters, not bytes or UTF-16 units, and reads CRLF line ends', () => {
    assert.deepEqual(findLongLines(`${line(140, '—')}\r\n${line(140, '😀')}\r\n${line(141, '⚠')}`), [{ line: 3, length: 141 }]);
  });

  it('allows a line that is long only because of one URL, and not one that stays long without it', () => {
    const url = `https://example.com/${'a'.repeat(150)}`;
    const text = [`  // See ${url}`, `  const link = '${url}';`, `  // ${'y'.repeat(140)} see ${url}`, `  // ${url} and ${url}`].join('\n');
    assert.deepEqual(
      findLongLines(text).map((hit) => hit.line),
      [3, 4],
    );
  });
});

describe('scanLineLengths', () => {
  it('reports long lines in tracked .ts, .tsx, .js, .mjs and .cjs files, and nothing from other or untracked files', () => {
    const root = repository(
      {
        ...CLEAN,
        'packages/core/src/long.ts': `const a = 1;\n${line(141)}\n`,
        'apps/demo/src/view.tsx': line(150),
        'benchmarks/bench.js': `\n\n${line(142)}`,
        'scripts/build.mjs': line(143),
        'config/old.cjs': line(144),
        // Not source, or not tracked: never scanned.
        'README.md': line(300),
        'packages/core/package.json': `{"description": "${'z'.repeat(300)}"}\n`,
      },
      { 'packages/core/src/draft.ts': line(300) },
    );
    const { files, hits } = scanLineLengths(root);
    assert.ok(!files.includes('README.md'));
    assert.ok(!files.includes('packages/core/src/draft.ts'));
    assert.deepEqual(hits.map(({ file, line: number, length }) => `${file}:${number}:${length}`).sort(), [
      'apps/demo/src/view.tsx:1:150',
      'benchmarks/bench.js:3:142',
      'config/old.cjs:1:144',
      'packages/core/src/long.ts:2:141',
      'scripts/build.mjs:1:143',
    ]);
  });

  it('skips a tracked file deleted from the work tree', () => {
    const root = repository({ ...CLEAN, 'packages/core/src/gone.ts': line(200) });
    rmSync(join(root, 'packages/core/src/gone.ts'));
    assert.deepEqual(scanLineLengths(root).hits, []);
  });

  it('throws outside a git repository rather than pass on nothing', () => {
    const root = mkdtempSync(join(tmpdir(), 'check-line-length-'));
    roots.push(root);
    writeFileSync(join(root, 'a.ts'), line(200));
    assert.throws(() => scanLineLengths(root), /git ls-files failed/);
  });
});

describe('runCheck', () => {
  it('prints file:line: length for each long line and a summary, and returns 1', () => {
    const root = repository({ ...CLEAN, 'packages/core/src/index.ts': `export const a = 1;\n${line(141)}\n` });
    const { status, err } = run(root);
    assert.equal(status, 1);
    assert.equal(err[0], 'packages/core/src/index.ts:2: 141');
    assert.match(err.at(-1) ?? '', /1 line\(s\) over 140 characters/);
  });

  it('prints nothing and returns 0 when every line fits', () => {
    assert.deepEqual(run(repository(CLEAN)), { status: 0, err: [] });
  });
});

describe('the command', () => {
  it('exits 1 with the long lines on a repository that has them, and 0 silently on a clean one', () => {
    const dirty = repository({ ...CLEAN, 'scripts/tool.mjs': `console.log(1);\n${line(145)}\n` });
    const failed = spawnSync(process.execPath, [SCRIPT, dirty], { encoding: 'utf8' });
    assert.equal(failed.status, 1);
    assert.match(failed.stderr, /^scripts\/tool\.mjs:2: 145$/m);

    const passed = spawnSync(process.execPath, [SCRIPT, repository(CLEAN)], { encoding: 'utf8' });
    assert.equal(passed.status, 0, passed.stderr);
    assert.equal(passed.stdout, '');
    assert.equal(passed.stderr, '');
  });
});
