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
});
