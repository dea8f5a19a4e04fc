// End to end, across processes: each `pnpm demo` command is a separate process (the built
// `node dist/main.js`), and what one leaves in the SQLite state file is what the next one finds.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_MAIN, spawnDemo, type DemoRun as Run } from './testing/spawn-demo.js';

/** Each test's own folder: the state folder of its children, and their temporary folder. */
let folder = '';
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'milpa-demo-state-e2e-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

/** The environment of a plain run: no colour forced, no state folder or temporary folder from the shell unless `extra` sets them. */
function childEnv(extra: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['FORCE_COLOR', 'NO_COLOR', 'MILPA_DEMO_STATE_DIR', 'MILPA_DEMO_MCP_TOKEN']) delete env[name];
  return { ...env, ...extra };
}

function demoWith(extra: Readonly<Record<string, string>>, ...args: string[]): Promise<Run> {
  return spawnDemo(args, childEnv(extra));
}

/** `pnpm demo …` with the test's folder as its state folder. */
function demo(...args: string[]): Promise<Run> {
  return demoWith({ MILPA_DEMO_STATE_DIR: folder }, ...args);
}

/** The run id that `--run new` printed on stderr. */
function openedRun(result: Run): string {
  const runId = /^run (\S+) opened; pass --run \1 to continue it$/m.exec(result.stderr)?.[1];
  if (runId === undefined) throw new Error(`no run opened: ${result.stderr}`);
  return runId;
}

function dataOf(result: Run): Record<string, unknown> {
  return (JSON.parse(result.stdout) as { data: Record<string, unknown> }).data;
}

/** A bad state path, the CLI's way: exit 2, one `error:` line naming it, one `hint:` line, no stack trace. */
function expectRefusedState(result: Run, error: string): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n')).toEqual([`error: ${error}`, expect.stringMatching(/^hint: .*--db/)]);
}

const ANA = ['--channel', 'telegram', '--actor', 'tg:ana', '--scope', 'notes:write'];
const ASSISTANT = ['--channel', 'mcp', '--actor', 'agent:assistant', '--scope', 'notes:read,notes:write'];

// One process at a time (except where a race is the point): a 2-core machine gains nothing from more.
describe('pnpm demo state (spawned)', () => {
  beforeAll(() => {
    if (!existsSync(DEMO_MAIN)) throw new Error('dist/main.js is missing: run `pnpm --filter @milpa/demo run build` first.');
  });

  it('keeps the state of call in milpa-demo/state.db under the system temporary folder, and closes it on exit', async () => {
    const result = await demoWith({ TMPDIR: folder }, 'call', 'list_notes');
    expect(result.code).toBe(0);
    expect(readdirSync(join(folder, 'milpa-demo'))).toEqual(['state.db']); // closed: SQLite removed its -wal and -shm files
  });

  it('keeps it in the file --db names instead', async () => {
    const path = join(folder, 'mine.db');
    expect((await demoWith({ TMPDIR: folder }, 'call', 'list_notes', '--db', path)).code).toBe(0);
    expect(readdirSync(folder)).toEqual(['mine.db']);
  });

  it('redeems a confirm token minted by one call in the next, once', async () => {
    const asked = await demo('call', 'delete_note', '--args', '{"id":2}', ...ANA, '--run', 'new', '--json');
    expect(asked.code, asked.stderr).toBe(0);
    const token = String(dataOf(asked)['confirm_token']);
    const runId = openedRun(asked);
    const replay = ['call', 'delete_note', '--args', JSON.stringify({ id: 2, confirm_token: token }), ...ANA, '--run', runId];
    const redeemed = await demo(...replay);
    expect(redeemed.code, redeemed.stderr).toBe(0);
    expect(redeemed.stdout).toContain('Note #2 deleted');
    const again = await demo(...replay);
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('Invalid or expired confirmation token');
  });

  it('lets exactly one of two processes presenting one token at once redeem it', async () => {
    const asked = await demo('call', 'delete_note', '--args', '{"id":3}', ...ANA, '--run', 'new', '--json');
    const replay = [
      'call',
      'delete_note',
      '--args',
      JSON.stringify({ id: 3, confirm_token: dataOf(asked)['confirm_token'] }),
      ...ANA,
      '--run',
      openedRun(asked),
    ];
    const both = await Promise.all([demo(...replay), demo(...replay)]);
    expect(both.map((result) => result.code).sort()).toEqual([0, 1]);
    expect(both.filter((result) => result.stdout.includes('Note #3 deleted'))).toHaveLength(1);
    expect(both.filter((result) => result.stdout.includes('Invalid or expired confirmation token'))).toHaveLength(1);
  });

  it("holds agent:assistant's delete in one process, grants it in a second and runs it once in a third", async () => {
    const held = await demo('call', 'delete_note', '--args', '{"id":2}', ...ASSISTANT, '--run', 'new', '--json');
    expect(held.code).toBe(1);
    expect(JSON.parse(held.stdout)).toMatchObject({ meta: { code: 'APPROVAL_PENDING' } });
    const approvalId = String(dataOf(held)['approval_id']);
    const runId = openedRun(held);
    const grant = [
      'call',
      'resolve_verification',
      '--args',
      JSON.stringify({ request_id: approvalId, decision: 'grant', principal: 'user:ana' }),
      '--channel',
      'web',
      '--actor',
      'user:ana',
    ];
    const unscoped = await demo(...grant);
    expect(unscoped.code).toBe(1);
    expect(unscoped.stdout).toContain('Missing required scope');
    const granted = await demo(...grant, '--scope', 'verification:resolve');
    expect(granted.code, granted.stdout).toBe(0);
    expect(granted.stdout).toContain(`Verification granted for '${approvalId}'.`);
    const resume = ['call', 'delete_note', '--args', JSON.stringify({ id: 2, approval_id: approvalId }), ...ASSISTANT, '--run', runId];
    const resumed = await demo(...resume);
    expect(resumed.code, resumed.stdout).toBe(0);
    expect(resumed.stdout).toContain('Note #2 deleted');
    const again = await demo(...resume, '--json');
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ meta: { approval_refusal: 'used' } });
  });

  it(
    'refuses a --db that is a folder, a file that is not a database, ' + 'a place nothing can be created, and a path under a file',
    async () => {
      const notes = join(folder, 'notes.txt');
      writeFileSync(notes, 'plain text, not a database\n');
      expectRefusedState(
        await demo('call', 'list_notes', '--db', folder),
        `cannot keep the demo's state in ${folder}: it is a folder, not a file`,
      );
      expectRefusedState(
        await demo('call', 'list_notes', '--db', notes),
        `cannot keep the demo's state in ${notes}: the file is not a SQLite database`,
      );
      expect(readFileSync(notes, 'utf8')).toBe('plain text, not a database\n');
      expectRefusedState(
        await demo('call', 'list_notes', '--db', '/proc/milpa-demo-state.db'),
        "cannot keep the demo's state in /proc/milpa-demo-state.db: the file cannot be created or opened there",
      );
      expectRefusedState(
        await demo('tour', '--db', join(notes, 'state.db')),
        `cannot keep the demo's state in ${join(notes, 'state.db')}: ${notes} is not a folder`,
      );
      expectRefusedState(await demo('mcp', '--db', notes), `cannot keep the demo's state in ${notes}: the file is not a SQLite database`);
    },
  );

  it('runs the tour twice in a row: exit 0, the same transcript, no state file left behind', async () => {
    const first = await demo();
    const second = await demo();
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(first.stderr).toBe('');
    expect(second.stdout).toBe(first.stdout);
    expect(first.stdout).toContain("Report 'q3-harvest' published");
    expect(readdirSync(folder)).toEqual([]);
  });
});
