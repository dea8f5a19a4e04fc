import { MilpaError, ToolContext, type ToolResult } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { appendFile, chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Workspace } from '../../sandbox/workspace.js';
import { fileTools, type FileToolSet } from '../file-tools/file-tools.js';
import { ReadLedger } from '../read-ledger/read-ledger.js';
import { FILE_EDIT_MAX_BYTES, fileEditTool } from './file-edit-tool.js';

let base: string;
let root: string;
let outsideDir: string;
let workspace: Workspace;
let files: FileToolSet;
let registry: ToolRegistry;
let context: ToolContext;

const OUTSIDE = 'OUTSIDE SECRET';
const SOURCE = 'const port = 3000;\nconst host = "localhost";\nexport { port, host };\n';

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'milpa-file-edit-'));
  root = join(base, 'root');
  outsideDir = join(base, 'outside');
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(outsideDir);
  await writeFile(join(outsideDir, 'secret.txt'), OUTSIDE);
  await writeFile(join(root, 'src', 'server.ts'), SOURCE);
  workspace = Workspace.at(root);
  files = fileTools({ workspace });
  registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), tools: files.all });
  context = ToolContext.cli().with({ runId: await registry.startRun() });
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const edit = (args: Record<string, unknown>, on: ToolContext = context): Promise<ToolResult> => registry.call('file_edit', args, on);
const read = (path: string, on: ToolContext = context): Promise<ToolResult> => registry.call('file_read', { path }, on);
const server = (): Promise<string> => readFile(join(root, 'src', 'server.ts'), 'utf8');

describe('fileEditTool', () => {
  describe('definition', () => {
    it('is a mutating file_edit tool with workspace:write scope, a closed schema and routing', () => {
      const tool = files.fileEdit;
      expect(tool.name).toBe('file_edit');
      expect(tool.mutating).toBe(true);
      expect(tool.scopes).toEqual(['workspace:write']);
      expect(tool.inputSchema['additionalProperties']).toBe(false);
      expect(tool.inputSchema['required']).toEqual(['path', 'old_str', 'new_str']);
      expect(tool.routing?.intents).toContain('edit a file');
      expect(fileEditTool({ workspace, ledger: new ReadLedger(), scopes: ['code:write'] }).scopes).toEqual(['code:write']);
    });

    it(
      'tells the model to copy old_str from the file text only, never the line-number prefix, ' + 'and that paths are relative to the root',
      () => {
        expect(files.fileEdit.description).toContain('Copy old_str from the file text only');
        expect(files.fileEdit.description).toContain('line-number prefix');
        expect(files.fileEdit.description).toContain('relative to the workspace root');
      },
    );

    it('throws INVALID_ARGUMENT without a Workspace or a ReadLedger', () => {
      expect(() => fileEditTool({ workspace: root as never, ledger: new ReadLedger() })).toThrow(MilpaError);
      expect(() => fileEditTool({ workspace, ledger: new Set() as never })).toThrow(/ReadLedger/);
    });
  });

  describe('run flow', () => {
    it('edits a file read earlier in the same run, and the file stays read for another edit', async () => {
      expect((await read('src/server.ts')).success).toBe(true);

      const first = await edit({ path: 'src/server.ts', old_str: 'const port = 3000;', new_str: 'const port = 8080;' });
      expect(first.success).toBe(true);
      expect(first.data).toEqual({ path: 'src/server.ts', line: 1, bytes: Buffer.byteLength(SOURCE) });

      const second = await edit({ path: 'src/server.ts', old_str: '"localhost"', new_str: '"0.0.0.0"' });
      expect(second.success).toBe(true);
      expect(second.data).toMatchObject({ line: 2 });
      expect(await server()).toBe('const port = 8080;\nconst host = "0.0.0.0";\nexport { port, host };\n');
      expect(await readdir(join(root, 'src'))).toEqual(['server.ts']);
    });

    it('refuses a file not read in the run with NOT_READ_IN_RUN, leaving it unchanged', async () => {
      const result = await edit({ path: 'src/server.ts', old_str: '3000', new_str: '1' });

      expect(result.meta['code']).toBe('NOT_READ_IN_RUN');
      expect(result.error).toContain('Read it with file_read first');
      expect(await server()).toBe(SOURCE);
    });

    it('refuses a file read in another run', async () => {
      const other = ToolContext.cli().with({ runId: await registry.startRun() });
      await read('src/server.ts', other);

      expect((await edit({ path: 'src/server.ts', old_str: '3000', new_str: '1' })).meta['code']).toBe('NOT_READ_IN_RUN');
    });

    it('refuses a call without a run with RUN_REQUIRED, explaining how a host starts one', async () => {
      await read('src/server.ts');

      const result = await edit({ path: 'src/server.ts', old_str: '3000', new_str: '1' }, ToolContext.cli());

      expect(result.meta['code']).toBe('RUN_REQUIRED');
      expect(result.error).toContain('registry.startRun()');
      expect(await server()).toBe(SOURCE);
    });

    it('does not count a read made without a run', async () => {
      await read('src/server.ts', ToolContext.cli());

      expect(files.ledger.runCount).toBe(0);
      expect((await edit({ path: 'src/server.ts', old_str: '3000', new_str: '1' })).meta['code']).toBe('NOT_READ_IN_RUN');
    });

    it('accepts a read through a symlink inside the workspace for an edit by the real path', async () => {
      await symlink(join(root, 'src', 'server.ts'), join(root, 'alias.ts'));
      await read('alias.ts');

      expect((await edit({ path: 'src/server.ts', old_str: '3000', new_str: '4000' })).success).toBe(true);
    });

    it('lets a read slice count as a read', async () => {
      await registry.call('file_read', { path: 'src/server.ts', offset: 2, limit: 1, line_numbers: true }, context);
      expect((await edit({ path: 'src/server.ts', old_str: '3000', new_str: '4000' })).success).toBe(true);
    });
  });

  describe('matching', () => {
    beforeEach(async () => {
      await read('src/server.ts');
    });

    it('refuses zero matches with NO_MATCH saying 0 matches, leaving the file unchanged', async () => {
      const result = await edit({ path: 'src/server.ts', old_str: 'const port = 4000;', new_str: 'x' });

      expect(result.meta['code']).toBe('NO_MATCH');
      expect(result.error).toContain('0 matches');
      expect(await server()).toBe(SOURCE);
    });

    it('points out a line-number prefix copied into old_str', async () => {
      const result = await edit({ path: 'src/server.ts', old_str: '1\tconst port = 3000;', new_str: 'x' });

      expect(result.meta['code']).toBe('NO_MATCH');
      expect(result.error).toContain('line-number prefix');
    });

    it('refuses several matches with AMBIGUOUS_MATCH saying how many, leaving the file unchanged', async () => {
      const result = await edit({ path: 'src/server.ts', old_str: 'const ', new_str: 'let ' });

      expect(result.meta['code']).toBe('AMBIGUOUS_MATCH');
      expect(result.error).toContain('occurs 2 times');
      expect(result.meta['matches']).toBe(2);
      expect(await server()).toBe(SOURCE);
    });

    it('counts overlapping occurrences as several matches', async () => {
      await writeFile(join(root, 'src', 'a.txt'), 'aaa');
      await read('src/a.txt');

      const result = await edit({ path: 'src/a.txt', old_str: 'aa', new_str: 'b' });

      expect(result.meta['code']).toBe('AMBIGUOUS_MATCH');
      expect(result.error).toContain('2 times');
    });

    it('replaces special replacement patterns literally', async () => {
      const result = await edit({ path: 'src/server.ts', old_str: '3000', new_str: "$&$'$1" });

      expect(result.success).toBe(true);
      expect(await server()).toContain("const port = $&$'$1;");
    });

    it('deletes the text with an empty new_str', async () => {
      await edit({ path: 'src/server.ts', old_str: 'export { port, host };\n', new_str: '' });
      expect(await server()).toBe('const port = 3000;\nconst host = "localhost";\n');
    });

    it('refuses an edit that changes nothing with NO_CHANGE, and an empty old_str', async () => {
      expect((await edit({ path: 'src/server.ts', old_str: '3000', new_str: '3000' })).meta['code']).toBe('NO_CHANGE');
      expect((await edit({ path: 'src/server.ts', old_str: '', new_str: 'x' })).success).toBe(false);
    });

    it('refuses with FILE_CHANGED when the file changes between its read and the write, keeping the other change', async () => {
      const open = workspace.openForRead.bind(workspace);
      vi.spyOn(workspace, 'openForRead').mockImplementation(async (path) => {
        const file = await open(path);
        await appendFile(join(root, 'src', 'server.ts'), '// added by someone else\n');
        return file;
      });

      const result = await edit({ path: 'src/server.ts', old_str: '3000', new_str: '1' });

      expect(result.meta['code']).toBe('FILE_CHANGED');
      expect(await server()).toBe(`${SOURCE}// added by someone else\n`);
    });

    it('keeps the file mode', async () => {
      await chmod(join(root, 'src', 'server.ts'), 0o640);
      await edit({ path: 'src/server.ts', old_str: '3000', new_str: '1' });
      expect((await stat(join(root, 'src', 'server.ts'))).mode & 0o777).toBe(0o640);
    });
  });

  describe('refusals', () => {
    it('refuses a file over 2 MiB with FILE_TOO_LARGE', async () => {
      await writeFile(join(root, 'big.txt'), `needle\n${'x'.repeat(FILE_EDIT_MAX_BYTES)}`);
      await read('big.txt');

      const result = await edit({ path: 'big.txt', old_str: 'needle', new_str: 'pin' });

      expect(result.meta['code']).toBe('FILE_TOO_LARGE');
      expect((await readFile(join(root, 'big.txt'), 'utf8')).startsWith('needle\n')).toBe(true);
    });

    it('refuses an edit that would grow the file past 2 MiB', async () => {
      await writeFile(join(root, 'near.txt'), `needle${'x'.repeat(FILE_EDIT_MAX_BYTES - 10)}`);
      await read('near.txt');

      expect((await edit({ path: 'near.txt', old_str: 'needle', new_str: 'y'.repeat(100) })).meta['code']).toBe('FILE_TOO_LARGE');
    });

    it('refuses a binary file with BINARY_FILE', async () => {
      await writeFile(join(root, 'data.bin'), Buffer.from([0x61, 0x00, 0x62]));
      files.ledger.record(context.runId as string, 'data.bin');

      expect((await edit({ path: 'data.bin', old_str: 'a', new_str: 'c' })).meta['code']).toBe('BINARY_FILE');
    });

    it('refuses invalid UTF-8 past the first 8 KiB with BINARY_FILE', async () => {
      await writeFile(join(root, 'late.txt'), Buffer.concat([Buffer.from(`needle${'x'.repeat(10_000)}`), Buffer.from([0xff, 0xfe])]));
      files.ledger.record(context.runId as string, 'late.txt');

      expect((await edit({ path: 'late.txt', old_str: 'needle', new_str: 'pin' })).meta['code']).toBe('BINARY_FILE');
    });

    it.each([
      ['package.json', 'BUILD_FILE'],
      ['.github/workflows/ci.yml', 'BUILD_FILE'],
      ['.gitignore', 'BUILD_FILE'],
      ['.env', 'SENSITIVE_PATH'],
      ['.ssh/config', 'SENSITIVE_PATH'],
      ['deploy/x.pem', 'SENSITIVE_PATH'],
    ])('refuses %s with %s even when it counts as read', async (path, code) => {
      await mkdir(join(root, path, '..'), { recursive: true });
      await writeFile(join(root, path), 'needle');
      files.ledger.record(context.runId as string, path);

      const result = await edit({ path, old_str: 'needle', new_str: 'pin' });

      expect(result.meta['code']).toBe(code);
      expect(await readFile(join(root, path), 'utf8')).toBe('needle');
    });

    it('refuses paths outside the workspace with PATH_OUTSIDE_WORKSPACE, leaving outside files unchanged', async () => {
      await symlink(outsideDir, join(root, 'escape'));
      for (const path of ['../outside/secret.txt', 'escape/secret.txt', '/etc/hostname', 'src/%2e%2e/%2e%2e/outside/secret.txt']) {
        const result = await edit({ path, old_str: 'OUTSIDE', new_str: 'PWNED' });
        expect(result.meta['code']).toBe('PATH_OUTSIDE_WORKSPACE');
      }
      expect(await readFile(join(outsideDir, 'secret.txt'), 'utf8')).toBe(OUTSIDE);
    });

    it('refuses a read file swapped for a symlink to an outside file before the edit', async () => {
      await read('src/server.ts');
      await unlink(join(root, 'src', 'server.ts'));
      await symlink(join(outsideDir, 'secret.txt'), join(root, 'src', 'server.ts'));

      const result = await edit({ path: 'src/server.ts', old_str: 'OUTSIDE', new_str: 'PWNED' });

      expect(result.meta['code']).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await readFile(join(outsideDir, 'secret.txt'), 'utf8')).toBe(OUTSIDE);
    });

    it('refuses a missing file with NOT_FOUND and an unknown argument with a refusal', async () => {
      expect((await edit({ path: 'src/none.ts', old_str: 'a', new_str: 'b' })).meta['code']).toBe('NOT_FOUND');
      await read('src/server.ts');
      expect((await edit({ path: 'src/server.ts', old_str: '3000', new_str: '1', replace_all: true })).success).toBe(false);
      expect(await server()).toBe(SOURCE);
    });
  });
});
