// Tests of test-progress.mjs and service-ping.mjs (the test command's progress lines, summary and CI
// service check), run by `pnpm test` (node --test scripts/*.test.mjs).
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { pingRedis } from './service-ping.mjs';
import { redisUrlOf } from './service-urls.mjs';
import { describeCounts, formatDuration, formatFinalSummary, formatTaskLine, summarizeTaskOutput } from './test-progress.mjs';

const ESC = '\u001b';

/** A passing vitest run's last lines, as recorded (colours included). */
const PASSED = [
  ' RUN  v4.1.12 /repo/packages/events',
  `${ESC}[2m Test Files ${ESC}[22m ${ESC}[1m${ESC}[32m5 passed${ESC}[39m${ESC}[22m${ESC}[90m (5)${ESC}[39m`,
  `${ESC}[2m      Tests ${ESC}[22m ${ESC}[1m${ESC}[32m131 passed${ESC}[39m${ESC}[22m | 2 skipped (133)`,
  `${ESC}[2m   Duration ${ESC}[22m 3.43s${ESC}[2m (transform 767ms, setup 0ms)${ESC}[22m`,
];
/** A failing one that skipped most of its tests for want of a service. */
const FAILED = [
  '[skipped] @milpa/store-redis: the Redis tests, because nothing answers at redis://127.0.0.1:6391',
  '      Tests  2 failed | 1 passed | 100 skipped (103)',
];

describe('summarizeTaskOutput', () => {
  it("reads vitest's counts and duration through its colours", () => {
    const summary = summarizeTaskOutput(PASSED);
    assert.deepEqual(summary.tests, { passed: 131, skipped: 2, total: 133 });
    assert.equal(summary.files.total, 5);
    assert.equal(summary.vitestMs, 3430);
    assert.equal(summary.failed, false);
  });

  it('marks a task failed from its counts, and keeps its [skipped] line once', () => {
    const summary = summarizeTaskOutput([...FAILED, FAILED[0]]);
    assert.equal(summary.failed, true);
    assert.deepEqual(summary.tests, { failed: 2, passed: 1, skipped: 100, total: 103 });
    assert.deepEqual(summary.skipNotes, [FAILED[0]]);
  });

  it("takes a [skipped] line only from a line's start, not from a test's name", () => {
    assert.deepEqual(summarizeTaskOutput(['ok 3 - keeps its [skipped] line once', '  [skipped] no browser']).skipNotes, [
      '[skipped] no browser',
    ]);
  });

  it('reads nothing from a task that ran no tests', () => {
    assert.deepEqual(summarizeTaskOutput(['Checked 10 files in 6s. No fixes applied.']), {
      failed: false,
      tests: null,
      files: null,
      vitestMs: null,
      skipNotes: [],
    });
  });
});

describe('formatTaskLine', () => {
  it('says position, elapsed time, result, task, counts and duration in one line', () => {
    const summary = summarizeTaskOutput(PASSED);
    const line = formatTaskLine({ id: '@milpa/events#test', summary, done: 7, total: 46, elapsedMs: 72_000 });
    assert.equal(line, '[ 7/46  1:12] ok   @milpa/events#test  131 passed, 2 skipped (5 files) in 3.4s');
  });

  it('says FAIL and lists failures first for a failed task', () => {
    const summary = summarizeTaskOutput(FAILED);
    assert.match(
      formatTaskLine({ id: 'x#test', summary, done: 1, total: 2, elapsedMs: 0 }),
      /^\[1\/2 {2}0:00\] FAIL x#test {2}2 failed, 1 passed/,
    );
  });
});

describe('formatDuration and describeCounts', () => {
  it('writes milliseconds, seconds and minutes', () => {
    assert.deepEqual([formatDuration(850), formatDuration(12_340), formatDuration(245_000)], ['850ms', '12.3s', '4m05s']);
  });

  it('writes nothing for a task without tests', () => {
    assert.equal(describeCounts(summarizeTaskOutput(['Build success in 12ms'])), '');
  });
});

describe('formatFinalSummary', () => {
  const tasks = [
    { id: 'a#test', package: 'a', task: 'test', ms: 90_000, exitCode: 0 },
    { id: 'a#build', package: 'a', task: 'build', ms: 5, exitCode: 0 },
    { id: 'b#test', package: 'b', task: 'test', ms: 30_000, exitCode: 1 },
  ];

  it('totals tests and times, names the slowest tasks, the skips and every failure', () => {
    const results = new Map([
      ['a#test', summarizeTaskOutput(['      Tests  10 passed | 2 skipped (12)', '[skipped] no browser'])],
      ['b#test', summarizeTaskOutput(['      Tests  1 failed | 4 passed (5)'])],
    ]);
    const steps = [{ name: 'release check', ms: 61_000, ok: false }];
    const text = formatFinalSummary({ tasks, results, steps, wallMs: 200_000 }).join('\n');
    assert.match(text, /\n {2}a {2}.*5ms .*1m30s .*10 passed, 2 skipped/);
    assert.match(text, /\n {2}b {2}.*30\.0s!.*1 failed, 4 passed/);
    assert.match(text, /Task time by kind: build 5ms, test 2m00s/);
    assert.match(text, /Slowest tasks: a#test 1m30s, b#test 30\.0s/);
    assert.match(text, /Release checks: release check 1m01s \(failed\)/);
    assert.match(text, /Tests: 14 passed, 1 failed, 2 skipped/);
    assert.match(text, /\n {2}\[skipped\] no browser\n/);
    assert.match(text, /FAILED \(b#test, release check\) after 3m20s\.$/);
  });

  it('ends with "All passed" when nothing failed', () => {
    assert.match(
      formatFinalSummary({ tasks: tasks.slice(0, 2), results: new Map(), steps: [], wallMs: 1_000 }).at(-1),
      /All passed in 1\.0s\.$/,
    );
  });
});

describe('pingRedis', () => {
  /** A loopback server answering each connection with `reply`; returns its URL and a closer. */
  async function fakeServer(reply) {
    const server = createServer((socket) => socket.once('data', () => (reply === null ? socket.end() : socket.write(reply))));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `redis://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
  }

  it('resolves to null when the server answers PONG, or asks for a password', async () => {
    for (const reply of ['+PONG\r\n', '-NOAUTH Authentication required.\r\n']) {
      const server = await fakeServer(reply);
      assert.equal(await pingRedis(server.url), null);
      await server.close();
    }
  });

  it('gives the reason when nothing listens, something else answers, or the connection closes', async () => {
    const closed = await fakeServer(null);
    await closed.close();
    assert.match(await pingRedis(closed.url), /ECONNREFUSED/);
    const http = await fakeServer('HTTP/1.1 400 Bad Request\r\n\r\n');
    assert.match(await pingRedis(http.url), /unexpected answer "HTTP\/1\.1 400/);
    await http.close();
    const silent = await fakeServer(null);
    assert.match(await pingRedis(silent.url), /closed without an answer/);
    await silent.close();
    assert.match(await pingRedis('not a url'), /not a URL/);
  });

  it('reads REDIS_URL, or the local default when it is unset or empty', () => {
    assert.equal(redisUrlOf({ REDIS_URL: 'redis://cache:6390' }), 'redis://cache:6390');
    assert.equal(redisUrlOf({}), 'redis://127.0.0.1:6379');
    assert.equal(redisUrlOf({ REDIS_URL: '' }), 'redis://127.0.0.1:6379');
  });
});
