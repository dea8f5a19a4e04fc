import { ToolContext, type ToolResult, unsupportedCaller } from '@milpa/core';
import { type ChildProcess, spawn } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeSearchTool } from '../tools/code-search/code-search-tool.js';
import { fileEditTool } from '../tools/file-edit/file-edit-tool.js';
import { fileReadTool } from '../tools/file-read/file-read-tool.js';
import { fileWriteTool } from '../tools/file-write/file-write-tool.js';
import { ReadLedger } from '../tools/read-ledger/read-ledger.js';
import { zipPackageTool } from '../tools/zip-package/zip-package-tool.js';
import { Workspace } from './workspace.js';

// Another process swaps the folder `d` between a real folder (holding a harmless `config`) and a
// symlink to a secret folder, as fast as it can, while the tools open `d/config` again and again.
// Whatever the timing, a tool answers the harmless file or a refusal: never the secret.

const SECRET = 'SECRET-SSH-CONFIG';
const OUTSIDE = 'SECRET-OUTSIDE-WORKSPACE';
const HARMLESS = 'harmless config';

const FLIPPER = `
const { renameSync } = require('node:fs');
const [root] = process.argv.slice(1);
const at = (name) => root + '/' + name;
// A busy loop never runs signal handlers: the default SIGKILL below stops it, and it stops by itself
// after three minutes should a test run be cut short.
const end = Date.now() + 180000;
while (Date.now() < end) {
  try { renameSync(at('d'), at('d-real')); renameSync(at('d-link'), at('d')); } catch {}
  try { renameSync(at('d'), at('d-link')); renameSync(at('d-real'), at('d')); } catch {}
}
`;

// Generous: the machine may be loaded, and a slow run is still a valid run.
const RACE_TIMEOUT_MS = 300_000;

let base: string;
let root: string;
let flipper: ChildProcess | null = null;

async function startFlipper(target: string): Promise<void> {
  await symlink(target, join(root, 'd-link'));
  flipper = spawn(process.execPath, ['-e', FLIPPER, root], { stdio: 'ignore' });
  // The race starts once the first swap is seen (the child may take a while to start on a busy machine).
  for (let waited = 0; ; waited += 5) {
    if (waited > 120_000) throw new Error('The folder-swapping process never started.');
    const seen = await lstat(join(root, 'd-real')).then(
      () => true,
      () => false,
    );
    if (seen) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'milpa-race-'));
  root = join(base, 'root');
  await mkdir(join(root, '.ssh'), { recursive: true });
  await mkdir(join(root, 'd'));
  await mkdir(join(base, 'outside'));
  await writeFile(join(root, '.ssh', 'config'), SECRET);
  await writeFile(join(base, 'outside', 'config'), OUTSIDE);
  await writeFile(join(root, 'd', 'config'), HARMLESS);
});

afterEach(async () => {
  if (flipper !== null) {
    const exited =
      flipper.exitCode === null && flipper.signalCode === null ? new Promise((resolve) => flipper?.once('exit', resolve)) : null;
    flipper.kill('SIGKILL');
    if (exited !== null) await exited;
    flipper = null;
  }
  await rm(base, { recursive: true, force: true });
});

function invoke(
  tool: { handler: (args: never, invocation: never) => unknown },
  args: Record<string, unknown>,
  runId: string | null = null,
) {
  const context = new ToolContext({ principal: 'test', scopes: ['*'], runId });
  return tool.handler(
    args as never,
    { context, signal: new AbortController().signal, caller: unsupportedCaller } as never,
  ) as Promise<ToolResult>;
}

/** Runs `attempt` `tries` times and counts what came back; a thrown error fails the test. */
async function race(tries: number, attempt: () => Promise<string>): Promise<Map<string, number>> {
  const outcomes = new Map<string, number>();
  for (let index = 0; index < tries; index += 1) {
    const outcome = await attempt();
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  }
  return outcomes;
}

function outcomeOf(result: ToolResult, leaked: (text: string) => boolean): string {
  const text = JSON.stringify(result);
  if (leaked(text)) return 'LEAK';
  return result.success ? 'ok' : String(result.meta['code']);
}

/** The uncompressed sizes of a zip's file entries, read from its central directory headers. */
function entrySizes(zip: Buffer): number[] {
  const sizes: number[] = [];
  for (let at = zip.indexOf(CENTRAL_HEADER); at !== -1; at = zip.indexOf(CENTRAL_HEADER, at + 4)) {
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (!name.endsWith('/')) sizes.push(zip.readUInt32LE(at + 24));
  }
  return sizes;
}
const CENTRAL_HEADER = Buffer.from([0x50, 0x4b, 0x01, 0x02]);

const leaksSecret = (text: string) => text.includes(SECRET) || text.includes(OUTSIDE);

describe('Workspace against a folder swapped for a symlink by another process', () => {
  it.each([
    ['a sensitive folder inside the workspace', '.ssh'],
    ['a folder outside the workspace', '../outside'],
  ])(
    'never lets file_read return a file through %s in 1,000 tries',
    async (_, target) => {
      await startFlipper(target);
      const tool = fileReadTool({ workspace: Workspace.at(root) });
      const outcomes = await race(1000, async () => outcomeOf(await invoke(tool, { path: 'd/config' }), leaksSecret));
      expect(outcomes.get('LEAK') ?? 0).toBe(0);
      // The race really ran: some reads were refused (how many succeed depends on the load of the machine).
      expect(1000 - (outcomes.get('ok') ?? 0)).toBeGreaterThan(0);
    },
    RACE_TIMEOUT_MS,
  );

  it(
    'never lets code_search match inside the secret file in 200 tries',
    async () => {
      await startFlipper('.ssh');
      const tool = codeSearchTool({ workspace: Workspace.at(root) });
      const outcomes = await race(200, async () => {
        const result = await invoke(tool, { pattern: 'SECRET', path: 'd/config' });
        const matches = result.success ? ((result.data as { matches: unknown[] }).matches.length ?? 0) : 0;
        return matches > 0 || leaksSecret(JSON.stringify(result)) ? 'LEAK' : outcomeOf(result, leaksSecret);
      });
      expect(outcomes.get('LEAK') ?? 0).toBe(0);
    },
    RACE_TIMEOUT_MS,
  );

  it(
    'never lets zip_package put the secret file in a zip in 100 tries',
    async () => {
      await startFlipper('.ssh');
      const tool = zipPackageTool({ workspace: Workspace.at(root), outputDirectory: base });
      const outcomes = await race(100, async () => {
        const result = await invoke(tool, { folder: 'd', output_name: 'd' });
        if (!result.success) return outcomeOf(result, leaksSecret);
        const zip = await readFile((result.data as { zip_path: string }).zip_path);
        // Entries are compressed: the sizes in the zip's central directory tell the secret from the harmless file.
        return zip.includes(SECRET) || entrySizes(zip).some((size) => size !== HARMLESS.length) ? 'LEAK' : 'ok';
      });
      expect(outcomes.get('LEAK') ?? 0).toBe(0);
    },
    RACE_TIMEOUT_MS,
  );

  it.each([
    ['a sensitive folder inside the workspace', '.ssh', '.ssh'],
    ['a folder outside the workspace', '../outside', '../outside'],
  ])(
    'never lets file_write leave a file in %s in 200 tries',
    async (_, target, folder) => {
      await startFlipper(target);
      const tool = fileWriteTool({ workspace: Workspace.at(root) });
      const outcomes = await race(200, async () => outcomeOf(await invoke(tool, { path: 'd/config', content: 'written' }), leaksSecret));
      expect(outcomes.get('LEAK') ?? 0).toBe(0);
      expect(await readdir(join(root, folder))).toEqual(['config']);
      expect(await readFile(join(root, folder, 'config'), 'utf8')).toBe(folder === '.ssh' ? SECRET : OUTSIDE);
    },
    RACE_TIMEOUT_MS,
  );

  it(
    'never lets file_edit read or change the secret file in 200 tries',
    async () => {
      await startFlipper('.ssh');
      const ledger = new ReadLedger();
      const workspace = Workspace.at(root);
      const read = fileReadTool({ workspace, ledger });
      const edit = fileEditTool({ workspace, ledger });
      const outcomes = await race(200, async () => {
        await invoke(read, { path: 'd/config' }, 'run-1');
        return outcomeOf(await invoke(edit, { path: 'd/config', old_str: 'SSH', new_str: 'ssh' }, 'run-1'), leaksSecret);
      });
      expect(outcomes.get('ok') ?? 0).toBe(0);
      expect(outcomes.get('LEAK') ?? 0).toBe(0);
      expect(await readFile(join(root, '.ssh', 'config'), 'utf8')).toBe(SECRET);
    },
    RACE_TIMEOUT_MS,
  );
});
