// Without Redis, the package's own test run skips the Redis suites with one line naming the URL it
// tried (or, with CI set, fails at once with one line). Runs vitest itself, as `pnpm test` does,
// against a port where nothing listens; the Redis files are skipped there, so each run is short.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { missingInCiLine, probeRedis, redisUrlOf, skippedLine } from './redis-availability.js';

const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
const VITEST = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

/** A loopback URL where nothing listens: a port the system just handed out, closed again. */
async function closedRedisUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `redis://127.0.0.1:${address.port}`;
}

interface Run {
  readonly code: number | null;
  readonly output: string;
  readonly stderr: string;
}

/** Runs this package's vitest on `files` with `env` added to a clean environment (no CI, no vitest variables). */
function runVitest(files: string[], env: Record<string, string>): Promise<Run> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'CI' && name !== 'REDIS_URL' && !name.startsWith('VITEST')),
  );
  const child = spawn(process.execPath, [VITEST, 'run', ...files], {
    cwd: PACKAGE_DIR,
    env: { ...base, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
  });
  let output = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output, stderr }));
  });
}

describe('the Redis availability check', () => {
  describe('redisUrlOf', () => {
    it('returns REDIS_URL when it is set, and the local default when it is unset or empty', () => {
      expect(redisUrlOf({ REDIS_URL: 'redis://cache:6390' })).toBe('redis://cache:6390');
      expect(redisUrlOf({})).toBe('redis://127.0.0.1:6379');
      expect(redisUrlOf({ REDIS_URL: '' })).toBe('redis://127.0.0.1:6379');
    });
  });

  describe('probeRedis', () => {
    it('reports the URL and the connection error when nothing listens there', async () => {
      const url = await closedRedisUrl();
      const availability = await probeRedis(url);
      expect(availability.url).toBe(url);
      expect(availability.unreachable).toMatch(/ECONNREFUSED/);
    });
  });

  describe('messages', () => {
    it('name the URL tried and both ways to get Redis', () => {
      const availability = { url: 'redis://127.0.0.1:6390', unreachable: 'connect ECONNREFUSED 127.0.0.1:6390' };
      for (const line of [skippedLine(availability), missingInCiLine(availability)]) {
        expect(line).toContain('redis://127.0.0.1:6390');
        expect(line).toContain('ECONNREFUSED');
        expect(line).toContain('redis-server');
        expect(line).toContain('REDIS_URL');
        expect(line).not.toContain('\n');
      }
      expect(skippedLine(availability)).toMatch(/^\[skipped\] @milpa\/store-redis: /);
    });
  });

  describe('a test run without Redis', () => {
    it('skips the Redis suites with one line naming the URL, and passes, when CI is not set', async () => {
      const url = await closedRedisUrl();
      const run = await runVitest(['src/redis-stores.test.ts', 'src/index.test.ts'], { REDIS_URL: url });
      expect(run.code, run.output).toBe(0);
      const skipped = run.output.split('\n').filter((line) => line.includes('[skipped]'));
      expect(skipped).toEqual([skippedLine({ url, unreachable: `connect ECONNREFUSED ${url.slice('redis://'.length)}` })]);
      // Every Redis test is skipped (however many there are); only the surface test runs.
      const counts = /Tests\s+1 passed \| (\d+) skipped \((\d+)\)/.exec(run.output);
      expect(counts, run.output).not.toBeNull();
      expect(Number(counts![1])).toBeGreaterThan(0);
      expect(Number(counts![2])).toBe(Number(counts![1]) + 1);
    });

    it('fails with one line naming the URL, before any test runs, when CI is set', async () => {
      const url = await closedRedisUrl();
      const run = await runVitest(['src/redis-stores.test.ts', 'src/index.test.ts'], { REDIS_URL: url, CI: 'true' });
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([
        missingInCiLine({ url, unreachable: `connect ECONNREFUSED ${url.slice('redis://'.length)}` }),
      ]);
      expect(run.output).not.toMatch(/✓|passed|failed/);
    });
  });
});
