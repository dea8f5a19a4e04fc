// Without PostgreSQL, the package's own test run skips the PostgreSQL suites with one line naming
// the URL it tried (or, with CI set, fails at once with one line). Runs vitest itself, as
// `pnpm test` does, against a port where nothing listens; the PostgreSQL files are skipped there,
// so each run is short.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { displayedUrl, missingInCiLine, postgresUrlOf, probePostgres, skippedLine } from './postgres-availability.js';

const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
const VITEST = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const PG_VARIABLES = ['DATABASE_URL', 'PGHOST', 'PGPORT', 'PGUSER', 'PGPASSWORD', 'PGDATABASE'];

/** A loopback URL where nothing listens: a port the system just handed out, closed again. */
async function closedPostgresUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `postgres://postgres@127.0.0.1:${String(address.port)}/test`;
}

interface Run {
  readonly code: number | null;
  readonly output: string;
  readonly stderr: string;
}

/** Runs this package's vitest on `files` with `env` added to a clean environment (no CI, no PG or vitest variables). */
function runVitest(files: string[], env: Record<string, string>): Promise<Run> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'CI' && !PG_VARIABLES.includes(name) && !name.startsWith('VITEST')),
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

describe('the PostgreSQL availability check', () => {
  describe('postgresUrlOf', () => {
    it('returns DATABASE_URL when it is set, a URL of the PG variables when they are, and the local default otherwise', () => {
      expect(postgresUrlOf({ DATABASE_URL: 'postgres://db:5433/app' })).toBe('postgres://db:5433/app');
      expect(postgresUrlOf({ DATABASE_URL: '', PGHOST: 'db', PGPORT: '5433', PGUSER: 'ci', PGPASSWORD: 's3cret', PGDATABASE: 'app' })).toBe(
        'postgres://ci:s3cret@db:5433/app',
      );
      expect(postgresUrlOf({ PGPORT: '5433' })).toBe('postgres://postgres@127.0.0.1:5433/test');
      expect(postgresUrlOf({})).toBe('postgres://postgres@127.0.0.1:5432/test');
    });
  });

  describe('probePostgres', () => {
    it('reports the URL and the connection error when nothing listens there', async () => {
      const url = await closedPostgresUrl();
      const availability = await probePostgres(url);
      expect(availability.url).toBe(url);
      expect(availability.unreachable).toMatch(/ECONNREFUSED/);
    });
  });

  describe('messages', () => {
    it('name the URL tried (without its password) and both ways to get PostgreSQL, on one line', () => {
      const availability = { url: 'postgres://ci:s3cret@127.0.0.1:5439/test', unreachable: 'connect ECONNREFUSED 127.0.0.1:5439' };
      for (const line of [skippedLine(availability), missingInCiLine(availability)]) {
        expect(line).toContain('postgres://ci:***@127.0.0.1:5439/test');
        expect(line).not.toContain('s3cret');
        expect(line).toContain('ECONNREFUSED');
        expect(line).toContain('docker run');
        expect(line).toContain('DATABASE_URL');
        expect(line).not.toContain('\n');
      }
      expect(skippedLine(availability)).toMatch(/^\[skipped\] @milpa\/store-postgres: /);
      expect(displayedUrl('postgres://127.0.0.1/test')).toBe('postgres://127.0.0.1/test');
    });
  });

  describe('a test run without PostgreSQL', () => {
    it('skips the PostgreSQL suites with one line naming the URL, and passes, when CI is not set', async () => {
      const url = await closedPostgresUrl();
      const run = await runVitest(['src/postgres-stores.test.ts', 'src/index.test.ts'], { DATABASE_URL: url });
      expect(run.code, run.output).toBe(0);
      const skipped = run.output.split('\n').filter((line) => line.includes('[skipped]'));
      expect(skipped).toEqual([skippedLine({ url, unreachable: `connect ECONNREFUSED ${new URL(url).host}` })]);
      // Every PostgreSQL test is skipped (however many there are); only the surface test runs.
      const counts = /Tests\s+1 passed \| (\d+) skipped \((\d+)\)/.exec(run.output);
      expect(counts, run.output).not.toBeNull();
      expect(Number(counts![1])).toBeGreaterThan(0);
      expect(Number(counts![2])).toBe(Number(counts![1]) + 1);
    });

    it('fails with one line naming the URL, before any test runs, when CI is set', async () => {
      const url = await closedPostgresUrl();
      const run = await runVitest(['src/postgres-stores.test.ts', 'src/index.test.ts'], { DATABASE_URL: url, CI: 'true' });
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([missingInCiLine({ url, unreachable: `connect ECONNREFUSED ${new URL(url).host}` })]);
      expect(run.output).not.toMatch(/✓|passed|failed/);
    });
  });
});
