import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decideUnavailable, extractSnippets, isCi, MARKERS, mapDiagnostics, runBounded, runCheck } from './check-readme-snippets.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const fence = '```';

describe('extractSnippets', () => {
  it('returns the ts and js blocks with the line of their first code line, and leaves other languages out', () => {
    const markdown = ['# x', '', `${fence}sh`, 'npm i x', fence, `${fence}ts`, 'const a = 1;', fence, `${fence}js`, 'let b;', fence].join(
      '\n',
    );
    const snippets = extractSnippets(markdown);
    assert.deepEqual(
      snippets.map(({ index, line, language, mode, code }) => ({ index, line, language, mode, code })),
      [
        { index: 1, line: 7, language: 'ts', mode: 'run', code: 'const a = 1;\n' },
        { index: 2, line: 10, language: 'mjs', mode: 'run', code: 'let b;\n' },
      ],
    );
  });

  it('reads the fragment and skip markers only on the line right before the fence', () => {
    const markdown = [
      MARKERS.fragment,
      `${fence}ts`,
      'a;',
      fence,
      MARKERS.skip,
      '',
      `${fence}ts`,
      'b;',
      fence,
      `${fence}ts`,
      'c;',
      fence,
    ].join('\n');
    assert.deepEqual(
      extractSnippets(markdown).map((snippet) => snippet.mode),
      ['fragment', 'skip', 'run'],
    );
  });

  it('reads the needs markers as blocks that run with their service, and other blocks as needing none', () => {
    const markdown = [
      MARKERS.redis,
      `${fence}ts`,
      'a;',
      fence,
      MARKERS.postgres,
      `${fence}ts`,
      'b;',
      fence,
      MARKERS.postgres,
      'Some prose in between.',
      `${fence}ts`,
      'c;',
      fence,
      MARKERS.fragment,
      `${fence}ts`,
      'd;',
      fence,
    ].join('\n');
    assert.deepEqual(
      extractSnippets(markdown).map(({ mode, needs }) => ({ mode, needs })),
      [
        { mode: 'run', needs: 'redis' },
        { mode: 'run', needs: 'postgres' },
        { mode: 'run', needs: null },
        { mode: 'fragment', needs: null },
      ],
    );
  });

  it('takes an indented block out of its list item, and a fence inside a longer fence as code', () => {
    const markdown = ['- item', '', `  ${fence}ts`, '  const a = 1;', `  ${fence}`, `${fence}${fence}ts`, fence, `${fence}${fence}`].join(
      '\n',
    );
    assert.deepEqual(
      extractSnippets(markdown).map((snippet) => snippet.code),
      ['const a = 1;\n', `${fence}\n`],
    );
  });
});

describe('mapDiagnostics', () => {
  it('names the README line of each diagnostic and keeps continuation lines with it', () => {
    const file = resolve('/tmp/x/readme-1.ts');
    const output = `${file}(3,5): error TS2304: Cannot find name 'agent'.\n  more detail\nother.ts(1,1): error TS1: elsewhere\n`;
    assert.deepEqual(mapDiagnostics(output, new Map([[file, { readme: 'packages/x/README.md', line: 20 }]])), [
      "packages/x/README.md:22:5: error TS2304: Cannot find name 'agent'.\n  more detail",
      'other.ts(1,1): error TS1: elsewhere',
    ]);
  });
});

describe('decideUnavailable', () => {
  const unavailable = [
    { service: 'postgres', url: 'postgres://app:secret@db:5432/app', reason: 'connect ECONNREFUSED', snippets: ['p/README.md:21'] },
    { service: 'redis', url: 'redis://127.0.0.1:1', reason: 'connect ECONNREFUSED', snippets: ['r/README.md:22', 'r/README.md:76'] },
  ];

  it('says nothing and passes when every service answered, in CI or not', () => {
    assert.deepEqual(decideUnavailable([], true), { failed: false, line: null });
    assert.deepEqual(decideUnavailable([], false), { failed: false, line: null });
  });

  it('without CI, passes with one [skipped] line naming the snippets not run and how to run them', () => {
    const { failed, line } = decideUnavailable(unavailable, false);
    assert.equal(failed, false);
    assert.match(line, /^\[skipped\] /);
    assert.doesNotMatch(line, /\n/);
    assert.match(line, /p\/README\.md:21 need PostgreSQL, which does not answer at postgres:\/\/app:\*\*\*@db:5432\/app/);
    assert.match(
      line,
      /r\/README\.md:22, r\/README\.md:76 need Redis, which does not answer at redis:\/\/127\.0\.0\.1:1 \(connect ECONNREFUSED\)/,
    );
    assert.match(line, /set REDIS_URL/);
    assert.match(line, /set DATABASE_URL/);
    assert.doesNotMatch(line, /secret/);
  });

  it('with CI set, fails with one line that is not a [skipped] line', () => {
    const { failed, line } = decideUnavailable(unavailable.slice(1), true);
    assert.equal(failed, true);
    assert.doesNotMatch(line, /\n/);
    assert.doesNotMatch(line, /^\[skipped\]/);
    assert.match(line, /with CI set no snippet may be skipped: r\/README\.md:22, r\/README\.md:76 need Redis/);
  });
});

describe('isCi', () => {
  it('is true when CI is set to anything but the empty string', () => {
    assert.equal(isCi({ CI: '1' }), true);
    assert.equal(isCi({ CI: 'false' }), true);
    assert.equal(isCi({ CI: '' }), false);
    assert.equal(isCi({}), false);
  });
});

describe('runBounded', () => {
  it('never runs more tasks at once than its limit and keeps the results in order', async () => {
    let running = 0;
    let most = 0;
    const tasks = [30, 5, 20, 1, 10].map((delay, at) => async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((done) => setTimeout(done, delay));
      running -= 1;
      return at;
    });
    assert.deepEqual(await runBounded(tasks, 2), [0, 1, 2, 3, 4]);
    assert.equal(most, 2);
  });
});

describe('runCheck', () => {
  it('fails on a type error and on a snippet that throws, names their README lines, and never runs a fragment', async () => {
    const directory = join(root, '.readme-snippets-test');
    rmSync(directory, { recursive: true, force: true });
    mkdirSync(directory, { recursive: true });
    const readme = [
      '# Example', // 1
      `${fence}ts`, // 2
      "import { ToolResult } from '@milpa/core';", // 3
      'console.log(ToolResult.success({ ok: 1 }).data);', // 4
      fence, // 5
      `${fence}ts`, // 6
      'const count: number = "three";', // 7
      fence, // 8
      `${fence}ts`, // 9
      "throw new Error('the example broke');", // 10
      fence, // 11
      MARKERS.fragment, // 12
      `${fence}ts`, // 13
      "throw new Error('a fragment ran');", // 14
      fence, // 15
      MARKERS.skip, // 16
      `${fence}ts`, // 17
      'this is not code', // 18
      fence, // 19
    ].join('\n');
    writeFileSync(join(directory, 'README.md'), readme);
    const out = [];
    const err = [];
    try {
      const status = await runCheck(root, ['.readme-snippets-test/README.md'], {
        out: (line) => out.push(line),
        err: (line) => err.push(line),
      });
      assert.equal(status, 1);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
    const report = err.join('\n');
    assert.match(report, /\.readme-snippets-test\/README\.md:7:7: error TS2322/);
    assert.match(report, /\.readme-snippets-test\/README\.md:10: the snippet exited with 1:[\s\S]*the example broke/);
    assert.doesNotMatch(report, /a fragment ran/);
    assert.doesNotMatch(report, /README\.md:3:/);
    assert.match(report, /4 snippets type-checked \(1 errors\), 3 run \(1 failed\), 1 skipped/);
  });

  it('does not run a snippet whose service does not answer, and says so on one [skipped] line without CI', async () => {
    const directory = join(root, '.readme-snippets-test-service');
    rmSync(directory, { recursive: true, force: true });
    mkdirSync(directory, { recursive: true });
    const readme = [
      MARKERS.redis, // 1
      `${fence}ts`, // 2
      "const url: string = process.env.REDIS_URL ?? 'none';", // 3
      'throw new Error(`a snippet ran without its service: ${url}`);', // 4
      fence, // 5
    ].join('\n');
    writeFileSync(join(directory, 'README.md'), readme);
    const out = [];
    const err = [];
    try {
      const status = await runCheck(
        root,
        ['.readme-snippets-test-service/README.md'],
        { out: (line) => out.push(line), err: (line) => err.push(line) },
        { env: { REDIS_URL: 'redis://127.0.0.1:1' } },
      );
      assert.equal(status, 0, err.join('\n'));
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
    assert.deepEqual(err, []);
    const skippedLines = out.filter((line) => line.startsWith('[skipped] '));
    assert.equal(skippedLines.length, 1);
    assert.match(skippedLines[0], /README\.md:3 need Redis, which does not answer at redis:\/\/127\.0\.0\.1:1/);
    assert.match(out.at(-1), /1 snippets type-checked \(0 errors\), 0 run \(0 failed\), 1 skipped/);
  });
});
