// End to end, across processes, on PostgreSQL: each `pnpm demo … --store postgres://…` is a separate
// process (the built `node dist/main.js`), and what one leaves in the database is what the next finds.
// Outside CI, without a PostgreSQL to talk to, the tests that need one are skipped with one line; with
// CI set, the file fails instead.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pingPostgres } from '../../../scripts/service-ping.mjs';
import { displayedUrl, postgresUrlOf } from '../../../scripts/service-urls.mjs';
import { DEMO_MAIN, spawnDemo, type DemoRun as Run } from './testing/spawn-demo.js';

const url = postgresUrlOf(process.env);
const unreachable = await pingPostgres(url);
if (unreachable !== null) {
  const line = `@milpa/demo: no PostgreSQL answers at ${displayedUrl(url)} (${unreachable})`;
  if (process.env['CI'] !== undefined && process.env['CI'] !== '') {
    throw new Error(`${line}, and with CI set the demo's PostgreSQL tests are never skipped; start one or set DATABASE_URL.`);
  }
  console.warn(`[skipped] ${line}: the demo's PostgreSQL tests; to run them, start one or set DATABASE_URL.`);
}

/** The schemas the tests made, dropped after each. */
const schemas: string[] = [];
afterEach(async () => {
  if (schemas.length === 0) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const schema of schemas.splice(0)) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
});

/** A schema of the test's own, so runs at once never share state. */
function freshSchema(): string {
  const schema = `milpa_demo_e2e_${randomBytes(6).toString('hex')}`;
  schemas.push(schema);
  return schema;
}

function demoIn(schema: string, ...args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, MILPA_DEMO_PG_SCHEMA: schema };
  for (const name of ['FORCE_COLOR', 'NO_COLOR', 'MILPA_DEMO_STATE_DIR', 'MILPA_DEMO_MCP_TOKEN']) delete env[name];
  return spawnDemo(args, env);
}

const ANA = ['--channel', 'telegram', '--actor', 'tg:ana', '--scope', 'notes:write'];

describe('pnpm demo --store (spawned)', () => {
  beforeAll(() => {
    if (!existsSync(DEMO_MAIN)) throw new Error('dist/main.js is missing: run `pnpm --filter @milpa/demo run build` first.');
  });

  it.skipIf(unreachable !== null)('redeems a confirm token minted by one process in the next, once, from PostgreSQL', async () => {
    const schema = freshSchema();
    const asked = await demoIn(schema, 'call', 'delete_note', '--args', '{"id":2}', ...ANA, '--run', 'new', '--json', '--store', url);
    expect(asked.code, asked.stderr).toBe(0);
    const token = String((JSON.parse(asked.stdout) as { data: Record<string, unknown> }).data['confirm_token']);
    const runId = /^run (\S+) opened;/m.exec(asked.stderr)?.[1] ?? '';
    // The second process names the server with the other scheme PostgreSQL URLs use.
    const other = url.replace(/^postgres(?:ql)?:/, url.startsWith('postgresql:') ? 'postgres:' : 'postgresql:');
    const replay = ['call', 'delete_note', '--args', JSON.stringify({ id: 2, confirm_token: token }), ...ANA, '--run', runId];
    const redeemed = await demoIn(schema, ...replay, '--store', other);
    expect(redeemed.code, redeemed.stderr).toBe(0);
    expect(redeemed.stdout).toContain('Note #2 deleted');
    const again = await demoIn(schema, ...replay, '--store', url);
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('Invalid or expired confirmation token');
    // Kept in the schema it was given, nowhere else.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const tables = await client.query('SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1', [schema]);
      expect(tables.rows[0]?.n).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  });

  it('exits 2 with one error line and one hint when no PostgreSQL answers, masking the password', async () => {
    const result = await demoIn('milpa_demo_unused', 'call', 'list_notes', '--store', 'postgres://ana:secret@127.0.0.1:1/test');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^error: cannot keep the demo's state in PostgreSQL at postgres:\/\/ana:\*\*\*@127\.0\.0\.1:1\/test: \S/),
      expect.stringMatching(/^hint: start the server, or pass --store /),
    ]);
  });
});
