import { MilpaError, ToolContext, ToolResult, unsupportedCaller } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../../sandbox/workspace.js';
import { ReadLedger } from '../read-ledger/read-ledger.js';
import { FILE_READ_MAX_BYTES, fileReadTool, type FileReadData } from './file-read-tool.js';

let base: string;
let root: string;
let outsideDir: string;
let workspace: Workspace;
let ledger: ReadLedger;
let tool: ReturnType<typeof fileReadTool>;

const OUTSIDE = 'OUTSIDE SECRET';
const tenLines = Array.from({ length: 10 }, (_, index) => `line${index + 1}\n`).join('');

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'milpa-file-read-'));
  root = join(base, 'root');
  outsideDir = join(base, 'outside');
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(outsideDir);
  await writeFile(join(outsideDir, 'secret.txt'), OUTSIDE);
  await writeFile(join(root, 'ten.txt'), tenLines);
  workspace = Workspace.at(root);
  ledger = new ReadLedger();
  tool = fileReadTool({ workspace, ledger });
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function read(args: Record<string, unknown>, runId: string | null = null): Promise<ToolResult<FileReadData>> {
  const context = new ToolContext({ principal: 'test', scopes: ['*'], runId });
  const result = await tool.handler(args as never, { context, signal: new AbortController().signal, caller: unsupportedCaller });
  expect(result).toBeInstanceOf(ToolResult);
  const typed = result as ToolResult<FileReadData>;
  if (typed.success) expect(JSON.stringify(typed.data)).not.toContain(OUTSIDE);
  return typed;
}

describe('fileReadTool', () => {
  describe('definition', () => {
    it(
      'is a read-only file_read tool with workspace:read scope, ' + 'a closed schema, routing and a description naming the workspace root',
      () => {
        expect(tool.name).toBe('file_read');
        expect(tool.mutating).toBe(false);
        expect(tool.scopes).toEqual(['workspace:read']);
        expect(tool.inputSchema['additionalProperties']).toBe(false);
        expect(Object.keys(tool.inputSchema['properties'] as object)).toEqual(['path', 'offset', 'limit', 'line_numbers']);
        expect(tool.description).toContain('relative to the workspace root');
        expect(tool.routing?.intents.length).toBeGreaterThan(0);
        expect(tool.routing?.examples.length).toBeGreaterThan(0);
      },
    );

    it('takes other scopes from the options', () => {
      expect(fileReadTool({ workspace, scopes: ['files:read'] }).scopes).toEqual(['files:read']);
    });

    it('throws INVALID_ARGUMENT without a Workspace', () => {
      expect(() => fileReadTool({ workspace: root as never })).toThrow(MilpaError);
    });
  });

  describe('whole file', () => {
    it('returns the whole text without next_offset when no paging is asked for', async () => {
      const result = await read({ path: 'ten.txt' });

      expect(result.success).toBe(true);
      expect(result.data).toEqual({ path: 'ten.txt', content: tenLines, truncated: false });
      expect(result.meta['warnings']).toEqual([]);
    });

    it('truncates at 16384 bytes with a warning', async () => {
      await writeFile(join(root, 'big.txt'), 'x'.repeat(FILE_READ_MAX_BYTES * 3));

      const result = await read({ path: 'big.txt' });

      expect(result.data.content).toBe('x'.repeat(FILE_READ_MAX_BYTES));
      expect(result.data.truncated).toBe(true);
      expect(result.meta['warnings']).toEqual([expect.stringContaining('Output truncated at 16384 bytes')]);
    });

    it('never cuts a multi-byte character in half at the cap', async () => {
      await writeFile(join(root, 'accents.txt'), `x${'é'.repeat(FILE_READ_MAX_BYTES)}`);

      const result = await read({ path: 'accents.txt' });

      expect(Buffer.byteLength(result.data.content)).toBe(FILE_READ_MAX_BYTES - 1);
      expect(result.data.content).not.toContain('\uFFFD');
    });

    it('returns an empty file as empty text', async () => {
      await writeFile(join(root, 'empty.txt'), '');
      expect((await read({ path: 'empty.txt' })).data.content).toBe('');
    });
  });

  describe('slices', () => {
    it('returns the lines from offset, limit lines long, with the next line as next_offset', async () => {
      const result = await read({ path: 'ten.txt', offset: 3, limit: 2 });

      expect(result.data.content).toBe('line3\nline4\n');
      expect(result.data.next_offset).toBe(5);
      expect(result.meta['next_offset']).toBe(5);
    });

    it('returns next_offset null when the slice reaches the end', async () => {
      expect((await read({ path: 'ten.txt', offset: 9, limit: 5 })).data).toMatchObject({ content: 'line9\nline10\n', next_offset: null });
      expect((await read({ path: 'ten.txt', offset: 8, limit: 3 })).data.next_offset).toBeNull();
    });

    it('prefixes each line with its number and a tab with line_numbers', async () => {
      const result = await read({ path: 'ten.txt', offset: 2, limit: 2, line_numbers: true });
      expect(result.data.content).toBe('2\tline2\n3\tline3\n');
    });

    it('returns the rest of the file from offset without limit, and the whole file with only line_numbers', async () => {
      expect((await read({ path: 'ten.txt', offset: 10 })).data).toMatchObject({ content: 'line10\n', next_offset: null });
      const numbered = await read({ path: 'ten.txt', line_numbers: true });
      expect(numbered.data.content.split('\n')[0]).toBe('1\tline1');
      expect(numbered.data.next_offset).toBeNull();
    });

    it('returns a last line without a final newline', async () => {
      await writeFile(join(root, 'open.txt'), 'a\nb\nc');
      expect((await read({ path: 'open.txt', offset: 2 })).data).toMatchObject({ content: 'b\nc', next_offset: null });
      expect((await read({ path: 'open.txt', offset: 1, limit: 2 })).data).toMatchObject({ content: 'a\nb\n', next_offset: 3 });
    });

    it('returns an empty slice with next_offset null and a warning when offset is past the end', async () => {
      const result = await read({ path: 'ten.txt', offset: 50, limit: 5 });

      expect(result.success).toBe(true);
      expect(result.data).toMatchObject({ content: '', next_offset: null, truncated: false });
      expect(result.meta['warnings']).toEqual(['offset 50 is past the end of the file, which has 10 lines.']);
    });

    it('cuts a slice at 16384 bytes between lines, with next_offset the first line left out', async () => {
      const lines = Array.from({ length: 1000 }, (_, index) => `${String(index + 1).padStart(4, '0')}${'.'.repeat(95)}\n`);
      await writeFile(join(root, 'many.txt'), lines.join(''));

      const result = await read({ path: 'many.txt', offset: 1, limit: 1000 });

      const returned = Math.floor(FILE_READ_MAX_BYTES / 100);
      expect(result.data.content).toBe(lines.slice(0, returned).join(''));
      expect(result.data.truncated).toBe(true);
      expect(result.data.next_offset).toBe(returned + 1);
      expect(result.meta['warnings']).toEqual([expect.stringContaining(`continue with offset ${returned + 1}`)]);
    });

    it('shows the start of a line longer than the cap and pages on after it', async () => {
      await writeFile(join(root, 'long-line.txt'), `${'y'.repeat(FILE_READ_MAX_BYTES * 4)}\nnext\n`);

      const result = await read({ path: 'long-line.txt', offset: 1, limit: 1 });

      expect(result.data.content).toBe('y'.repeat(FILE_READ_MAX_BYTES));
      expect(result.data.next_offset).toBe(2);
      expect(result.meta['warnings']).toEqual([expect.stringContaining('Line 1 is longer than 16384 bytes')]);
      expect((await read({ path: 'long-line.txt', offset: 2 })).data.content).toBe('next\n');
    });

    it('finds lines far into a large file across read chunks', async () => {
      const count = 300_000;
      await writeFile(join(root, 'large.txt'), Array.from({ length: count }, (_, index) => `line ${index + 1}\n`).join(''));

      const result = await read({ path: 'large.txt', offset: count - 1, limit: 5, line_numbers: true });

      expect(result.data.content).toBe(`${count - 1}\tline ${count - 1}\n${count}\tline ${count}\n`);
      expect(result.data.next_offset).toBeNull();
      expect((await read({ path: 'large.txt', offset: 123_456, limit: 1 })).data).toMatchObject({
        content: 'line 123456\n',
        next_offset: 123_457,
      });
    });

    it('returns the same slices as splitting the whole text, for lines crossing read chunks', async () => {
      // A small deterministic generator: the same file and slices on every run.
      let state = 7;
      const next = (below: number): number => {
        state = (state * 1103515245 + 12345) % 2 ** 31;
        return state % below;
      };
      const lines = Array.from({ length: 400 }, (_, index) => `${index + 1}:${'é'.repeat(next(3)) + 'z'.repeat(next(1500))}\n`);
      const text = lines.join('').slice(0, -1 - next(2));
      await writeFile(join(root, 'mixed.txt'), text);
      const all = text.split(/(?<=\n)/);

      for (let round = 0; round < 60; round += 1) {
        const offset = 1 + next(all.length + 5);
        const limit = 1 + next(12);
        const lineNumbers = next(2) === 1;
        const result = await read({ path: 'mixed.txt', offset, limit, line_numbers: lineNumbers });

        const wanted = all.slice(offset - 1, offset - 1 + limit);
        let bytes = 0;
        const kept: string[] = [];
        for (const [index, line] of wanted.entries()) {
          const shown = lineNumbers ? `${offset + index}\t${line}` : line;
          if (bytes + Buffer.byteLength(shown) > FILE_READ_MAX_BYTES) break;
          bytes += Buffer.byteLength(shown);
          kept.push(shown);
        }
        const cut = kept.length < wanted.length;
        const end = offset - 1 + kept.length;
        expect(result.data.content).toBe(kept.join(''));
        expect(result.data.truncated).toBe(cut);
        expect(result.data.next_offset).toBe(cut || end < all.length ? end + 1 : null);
      }
    });

    it.each([[0], [-1], [1.5]])('refuses offset %s with INVALID_OFFSET', async (offset) => {
      expect((await read({ path: 'ten.txt', offset })).meta['code']).toBe('INVALID_OFFSET');
    });

    it.each([[0], [-2], [2.5]])('refuses limit %s with INVALID_LIMIT', async (limit) => {
      expect((await read({ path: 'ten.txt', limit })).meta['code']).toBe('INVALID_LIMIT');
    });
  });

  describe('refusals', () => {
    it('refuses a file with a NUL byte with BINARY_FILE', async () => {
      await writeFile(join(root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
      const result = await read({ path: 'image.png' });
      expect(result.meta['code']).toBe('BINARY_FILE');
      expect(result.error).toContain('NUL');
    });

    it('refuses invalid UTF-8 with BINARY_FILE, for slices too', async () => {
      await writeFile(join(root, 'latin1.bin'), Buffer.from([0x61, 0xff, 0xfe, 0x62, 0x0a]));
      expect((await read({ path: 'latin1.bin' })).meta['code']).toBe('BINARY_FILE');
      expect((await read({ path: 'latin1.bin', offset: 1 })).meta['code']).toBe('BINARY_FILE');
    });

    it('reads text whose 8 KiB sample ends inside a multi-byte character', async () => {
      await writeFile(join(root, 'euro.txt'), `x${'€'.repeat(5000)}`);
      expect((await read({ path: 'euro.txt' })).success).toBe(true);
    });

    it.each([['.env'], ['.env.local'], ['.ENV'], ['id_rsa'], ['.ssh/config'], ['x.pem'], ['config/credentials.json']])(
      'refuses the sensitive path %s with SENSITIVE_PATH, reading nothing',
      async (path) => {
        await mkdir(join(root, path, '..'), { recursive: true });
        await writeFile(join(root, path), 'TOP SECRET');
        const result = await read({ path });
        expect(result.meta['code']).toBe('SENSITIVE_PATH');
        expect(result.error).toContain('Secrets are never shown');
        expect(JSON.stringify(result)).not.toContain('TOP SECRET');
      },
    );

    it('refuses a harmless name that is a symlink to a sensitive file inside the workspace', async () => {
      await writeFile(join(root, '.env'), 'TOKEN=1');
      await symlink(join(root, '.env'), join(root, 'notes.txt'));
      expect((await read({ path: 'notes.txt' })).meta['code']).toBe('SENSITIVE_PATH');
    });

    it.each([
      ['../outside/secret.txt'],
      ['src/../../outside/secret.txt'],
      ['/etc/passwd'],
      ['%2e%2e%2foutside/secret.txt'],
      ['..\\outside\\secret.txt'],
      ['~/secret.txt'],
    ])('refuses %s with PATH_OUTSIDE_WORKSPACE', async (path) => {
      const result = await read({ path });
      expect(result.meta['code']).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(JSON.stringify(result)).not.toContain(OUTSIDE);
    });

    it('refuses symlinks pointing outside (file, folder, dangling) with PATH_OUTSIDE_WORKSPACE', async () => {
      await symlink(join(outsideDir, 'secret.txt'), join(root, 'file-link.txt'));
      await symlink(outsideDir, join(root, 'folder-link'));
      await symlink(join(outsideDir, 'missing.txt'), join(root, 'dangling.txt'));
      for (const path of ['file-link.txt', 'folder-link/secret.txt', 'dangling.txt']) {
        const result = await read({ path });
        expect(result.meta['code']).toBe('PATH_OUTSIDE_WORKSPACE');
        expect(JSON.stringify(result)).not.toContain(OUTSIDE);
      }
    });

    it('refuses a missing file with NOT_FOUND, a folder and a FIFO with NOT_A_FILE', async () => {
      execFileSync('mkfifo', [join(root, 'pipe')]);
      expect((await read({ path: 'missing.txt' })).meta['code']).toBe('NOT_FOUND');
      expect((await read({ path: 'src' })).meta['code']).toBe('NOT_A_FILE');
      expect((await read({ path: 'pipe' })).meta['code']).toBe('NOT_A_FILE');
    });

    it('refuses an unknown argument with UNKNOWN_ARGUMENT', async () => {
      expect((await read({ path: 'ten.txt', pth: 'x' })).meta['code']).toBe('UNKNOWN_ARGUMENT');
    });
  });

  describe('read ledger', () => {
    it('notes a successful read in the run, and nothing without a run or for a refused read', async () => {
      await read({ path: 'ten.txt' }, 'run-1');
      await read({ path: 'ten.txt', offset: 2 }, null);
      await writeFile(join(root, 'bin.dat'), Buffer.from([0, 1, 2]));
      await read({ path: 'bin.dat' }, 'run-1');

      expect(ledger.has('run-1', 'ten.txt')).toBe(true);
      expect(ledger.has('run-1', 'bin.dat')).toBe(false);
      expect(ledger.runCount).toBe(1);
    });

    it('notes the resolved path of a symlink inside the workspace', async () => {
      await writeFile(join(root, 'src', 'real.ts'), 'export {};\n');
      await symlink(join(root, 'src', 'real.ts'), join(root, 'alias.ts'));
      const result = await read({ path: 'alias.ts' }, 'run-1');
      expect(result.data.path).toBe('src/real.ts');
      expect(ledger.has('run-1', 'src/real.ts')).toBe(true);
    });
  });

  describe('through a ToolRegistry', () => {
    it('answers a call and refuses a schema violation before the tool runs', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), tools: [tool] });

      const ok = await registry.call('file_read', { path: 'ten.txt', offset: 1, limit: 1 });
      expect(ok.data).toEqual({ path: 'ten.txt', content: 'line1\n', truncated: false, next_offset: 2 });

      const extra = await registry.call('file_read', { path: 'ten.txt', mode: 'raw' });
      expect(extra.success).toBe(false);
    });
  });
});
