// With CI set, the test command stops in its first seconds, with one line, when a service or the
// browser the tests need is missing (nothing may be skipped in CI).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const TEST_COMMAND = fileURLToPath(new URL('./test.mjs', import.meta.url));

function runTestCommand(env) {
  const started = Date.now();
  const result = spawnSync(process.execPath, [TEST_COMMAND], {
    env: { ...process.env, CI: 'true', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { ...result, ms: Date.now() - started };
}

describe('the test command in CI', () => {
  it('stops at once with one line when no browser is found', () => {
    const result = runTestCommand({ CHROMIUM_PATH: '/nonexistent/chromium' });
    assert.equal(result.status, 1);
    assert.deepEqual(result.stderr.trim().split('\n'), [
      'The approvals console browser tests need Chromium or Chrome: install it (Debian: apt-get install -y chromium) ' +
        'or set CHROMIUM_PATH to its executable. With CI set, no test may be skipped.',
    ]);
    assert.ok(result.ms < 30_000, `took ${result.ms} ms`);
  });

  it('stops at once with one line when Redis does not answer at REDIS_URL', () => {
    const result = runTestCommand({ REDIS_URL: 'redis://127.0.0.1:1' });
    assert.equal(result.status, 1);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^No Redis answers at redis:\/\/127\.0\.0\.1:1 \(.+\), and with CI set no test may be skipped/);
  });

  it('stops at once with one line when PostgreSQL does not answer, naming the URL without its password', () => {
    const result = runTestCommand({ DATABASE_URL: 'postgres://ci:s3cret@127.0.0.1:1/test' });
    assert.equal(result.status, 1);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^No PostgreSQL answers at postgres:\/\/ci:\*\*\*@127\.0\.0\.1:1\/test \(.+\), and with CI set/);
    assert.doesNotMatch(lines[0], /s3cret/);
  });
});

describe('pingPostgres', () => {
  it('answers null for the PostgreSQL the tests use, and the reason when none listens', async () => {
    const { pingPostgres } = await import('./service-ping.mjs');
    const { postgresUrlOf } = await import('./service-urls.mjs');
    assert.equal(await pingPostgres(postgresUrlOf(process.env)), null);
    assert.match(await pingPostgres('postgres://postgres@127.0.0.1:1/test'), /ECONNREFUSED/);
    assert.equal(await pingPostgres('not a url'), 'not a URL');
  });
});
