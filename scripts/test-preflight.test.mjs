// With CI set, the test command stops in its first seconds, with one line, when a service or the
// browser the tests need is missing (nothing may be skipped in CI). The services here are stand-ins
// on loopback, so these tests pass on a machine without Redis or PostgreSQL.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { pingPostgres } from './service-ping.mjs';

const TEST_COMMAND = fileURLToPath(new URL('./test.mjs', import.meta.url));

/** A loopback server answering whatever arrives on a connection with `reply`; resolves to its port and a closer. */
async function standIn(reply) {
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end(reply));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: server.address().port, close: () => server.close() };
}

/** Runs the test command with CI set and `env` over this process's environment; resolves to its exit code and stderr. */
async function runTestCommand(env) {
  const child = spawn(process.execPath, [TEST_COMMAND], {
    env: { ...process.env, CI: 'true', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const [status] = await once(child, 'close');
  clearTimeout(timer);
  return { status, lines: stderr.trim().split('\n') };
}

describe('the test command in CI', () => {
  let redis;
  let postgres;
  before(async () => {
    redis = await standIn('+PONG\r\n');
    postgres = await standIn('N');
  });
  after(() => {
    redis.close();
    postgres.close();
  });

  it('stops at once with one line when no browser is found', async () => {
    const { status, lines } = await runTestCommand({
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      DATABASE_URL: `postgres://postgres@127.0.0.1:${postgres.port}/test`,
      CHROMIUM_PATH: '/nonexistent/chromium',
    });
    assert.equal(status, 1);
    assert.deepEqual(lines, [
      'The approvals console browser tests need Chromium or Chrome: install it (Debian: apt-get install -y chromium) ' +
        'or set CHROMIUM_PATH to its executable. With CI set, no test may be skipped.',
    ]);
  });

  it('stops at once with one line when Redis does not answer at REDIS_URL', async () => {
    const { status, lines } = await runTestCommand({ REDIS_URL: 'redis://127.0.0.1:1' });
    assert.equal(status, 1);
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^No Redis answers at redis:\/\/127\.0\.0\.1:1 \(.+\), and with CI set no test may be skipped/);
  });

  it('stops at once with one line when PostgreSQL does not answer, naming the URL without its password', async () => {
    const { status, lines } = await runTestCommand({
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      DATABASE_URL: 'postgres://ci:s3cret@127.0.0.1:1/test',
    });
    assert.equal(status, 1);
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^No PostgreSQL answers at postgres:\/\/ci:\*\*\*@127\.0\.0\.1:1\/test \(.+\), and with CI set/);
    assert.doesNotMatch(lines[0], /s3cret/);
  });
});

describe('pingPostgres', () => {
  it('answers null when a PostgreSQL server answers the SSL request, whichever way', async () => {
    for (const answer of ['N', 'S']) {
      const server = await standIn(answer);
      try {
        assert.equal(await pingPostgres(`postgres://postgres@127.0.0.1:${server.port}/test`), null);
      } finally {
        server.close();
      }
    }
  });

  it('answers the reason when nothing listens, something else answers, or the URL is not one', async () => {
    assert.match(await pingPostgres('postgres://postgres@127.0.0.1:1/test'), /ECONNREFUSED/);
    const http = await standIn('HTTP/1.1 400 Bad Request\r\n\r\n');
    try {
      assert.match(await pingPostgres(`postgres://postgres@127.0.0.1:${http.port}/test`), /not a PostgreSQL server/);
    } finally {
      http.close();
    }
    assert.equal(await pingPostgres('not a url'), 'not a URL');
  });
});
