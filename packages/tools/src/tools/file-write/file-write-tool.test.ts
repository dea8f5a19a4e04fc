import { MilpaError, ToolContext, ToolResult, unsupportedCaller } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../../sandbox/workspace.js';
import { FILE_WRITE_MAX_BYTES, fileWriteTool, type FileWriteData } from './file-write-tool.js';

let base: string;
let root: string;
let outsideDir: string;
let tool: ReturnType<typeof fileWriteTool>;

const OUTSIDE = 'OUTSIDE SECRET';

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'milpa-file-write-'));
  root = join(base, 'root');
  outsideDir = join(base, 'outside');
  await mkdir(join(root, 'docs'), { recursive: true });
  await mkdir(outsideDir);
  await writeFile(join(outsideDir, 'secret.txt'), OUTSIDE);
  tool = fileWriteTool({ workspace: Workspace.at(root) });
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function write(args: Record<string, unknown>): Promise<ToolResult<FileWriteData>> {
  const context = new ToolContext({ principal: 'test', scopes: ['*'] });
  const result = await tool.handler(args as never, { context, signal: new AbortController().signal, caller: unsupportedCaller });
  expect(result).toBeInstanceOf(ToolResult);
  return result as ToolResult<FileWriteData>;
}

async function expectOutsideUntouched(): Promise<void> {
  expect(await readdir(outsideDir)).toEqual(['secret.txt']);
  expect(await readFile(join(outsideDir, 'secret.txt'), 'utf8')).toBe(OUTSIDE);
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

describe('fileWriteTool', () => {
  describe('definition', () => {
    it(
      'is a mutating file_write tool with workspace:write scope, ' + 'a closed schema, routing and a description naming the workspace root',
      () => {
        expect(tool.name).toBe('file_write');
        expect(tool.mutating).toBe(true);
        expect(tool.scopes).toEqual(['workspace:write']);
        expect(tool.inputSchema['additionalProperties']).toBe(false);
        expect(tool.inputSchema['required']).toEqual(['path', 'content']);
        expect(tool.description).toContain('relative to the workspace root');
        expect(tool.routing?.domains).toContain('files');
        expect(fileWriteTool({ workspace: Workspace.at(root), scopes: ['docs:write'] }).scopes).toEqual(['docs:write']);
      },
    );

    it('throws INVALID_ARGUMENT without a Workspace', () => {
      expect(() => fileWriteTool({ workspace: {} as never })).toThrow(MilpaError);
    });
  });

  describe('writing', () => {
    it('creates a new file and reports created true', async () => {
      const result = await write({ path: 'docs/notes.md', content: '# Notes\n' });

      expect(result.success).toBe(true);
      expect(result.data).toEqual({ path: 'docs/notes.md', bytes: 8, created: true });
      expect(await readFile(join(root, 'docs', 'notes.md'), 'utf8')).toBe('# Notes\n');
    });

    it('replaces an existing file with a warning and leaves no temporary file behind', async () => {
      await writeFile(join(root, 'docs', 'notes.md'), 'old');

      const result = await write({ path: 'docs/notes.md', content: 'new' });

      expect(result.data.created).toBe(false);
      expect(result.meta['warnings']).toEqual(["'docs/notes.md' existed and was replaced."]);
      expect(await readFile(join(root, 'docs', 'notes.md'), 'utf8')).toBe('new');
      expect(await readdir(join(root, 'docs'))).toEqual(['notes.md']);
    });

    it('counts bytes of UTF-8, not characters', async () => {
      expect((await write({ path: 'docs/e.txt', content: 'é€' })).data.bytes).toBe(5);
    });

    it('refuses a missing folder with FOLDER_NOT_FOUND naming create_folders, creating nothing', async () => {
      const result = await write({ path: 'new/deep/file.txt', content: 'x' });

      expect(result.meta['code']).toBe('FOLDER_NOT_FOUND');
      expect(result.error).toContain("'new/deep'");
      expect(result.error).toContain('create_folders: true');
      expect(await exists(join(root, 'new'))).toBe(false);
    });

    it('creates missing folders with create_folders true', async () => {
      const result = await write({ path: 'new/deep/file.txt', content: 'x', create_folders: true });

      expect(result.success).toBe(true);
      expect((await stat(join(root, 'new', 'deep'))).isDirectory()).toBe(true);
      expect(await readFile(join(root, 'new', 'deep', 'file.txt'), 'utf8')).toBe('x');
    });

    it('accepts exactly 10 MiB and refuses one byte more with FILE_TOO_LARGE', async () => {
      expect((await write({ path: 'docs/max.txt', content: 'a'.repeat(FILE_WRITE_MAX_BYTES) })).success).toBe(true);

      const over = await write({ path: 'docs/over.txt', content: 'a'.repeat(FILE_WRITE_MAX_BYTES + 1) });
      expect(over.meta['code']).toBe('FILE_TOO_LARGE');
      expect(await exists(join(root, 'docs', 'over.txt'))).toBe(false);
    });

    it('refuses multi-byte content over 10 MiB of UTF-8 even with fewer characters', async () => {
      const content = 'é'.repeat(FILE_WRITE_MAX_BYTES / 2 + 1);
      expect(content.length).toBeLessThan(FILE_WRITE_MAX_BYTES);
      expect((await write({ path: 'docs/wide.txt', content })).meta['code']).toBe('FILE_TOO_LARGE');
    });
  });

  describe('refusals', () => {
    it.each([
      ['run.sh', 'EXECUTABLE_FILE'],
      ['bin/setup.PS1', 'EXECUTABLE_FILE'],
      ['tool.exe', 'EXECUTABLE_FILE'],
      ['.env', 'SENSITIVE_PATH'],
      ['.env.local', 'SENSITIVE_PATH'],
      ['.ssh/authorized_keys', 'SENSITIVE_PATH'],
      ['certs/x.pem', 'SENSITIVE_PATH'],
      ['.git/hooks/pre-commit', 'SENSITIVE_PATH'],
      ['package.json', 'BUILD_FILE'],
      ['pnpm-lock.yaml', 'BUILD_FILE'],
      ['.github/workflows/ci.yml', 'BUILD_FILE'],
      ['.husky/pre-push', 'BUILD_FILE'],
    ])('refuses %s with %s, creating nothing', async (path, code) => {
      const result = await write({ path, content: 'payload', create_folders: true });

      expect(result.meta['code']).toBe(code);
      expect(result.error).toContain(`Refused to write`);
      expect(await exists(join(root, path))).toBe(false);
    });

    it.each(['index.php', 'views/page.PHTML', 'lib/app.phar'])('refuses the PHP file %s with EXECUTABLE_FILE by default', async (path) => {
      const result = await write({ path, content: '<?php echo 1;', create_folders: true });

      expect(result.meta['code']).toBe('EXECUTABLE_FILE');
      expect(result.error).toContain('allowPhpFiles');
      expect(await exists(join(root, path))).toBe(false);
    });

    it('writes PHP files when the host sets allowPhpFiles, and still refuses other scripts', async () => {
      tool = fileWriteTool({ workspace: Workspace.at(root), allowPhpFiles: true });

      expect((await write({ path: 'index.php', content: '<?php echo 1;' })).success).toBe(true);
      expect(await readFile(join(root, 'index.php'), 'utf8')).toBe('<?php echo 1;');
      expect((await write({ path: 'run.sh', content: 'echo 1' })).meta['code']).toBe('EXECUTABLE_FILE');
    });

    it('throws INVALID_ARGUMENT when allowPhpFiles is not a boolean', () => {
      expect(() => fileWriteTool({ workspace: Workspace.at(root), allowPhpFiles: 'yes' as never })).toThrow(MilpaError);
    });

    it('refuses a harmless name that is a symlink to a build file inside the workspace', async () => {
      await writeFile(join(root, 'package.json'), '{}');
      await symlink(join(root, 'package.json'), join(root, 'pkg.txt'));

      expect((await write({ path: 'pkg.txt', content: 'x' })).meta['code']).toBe('BUILD_FILE');
      expect(await readFile(join(root, 'package.json'), 'utf8')).toBe('{}');
    });

    it.each([
      ['../outside/new.txt'],
      ['../outside/secret.txt'],
      ['docs/../../outside/new.txt'],
      ['/tmp/new.txt'],
      ['C:/new.txt'],
      ['docs\\..\\..\\x.txt'],
      ['%2e%2e/x.txt'],
      ['x\0.txt'],
    ])('refuses %s with PATH_OUTSIDE_WORKSPACE and writes nothing outside', async (path) => {
      const result = await write({ path, content: 'PAYLOAD', create_folders: true });
      expect(result.meta['code']).toBe('PATH_OUTSIDE_WORKSPACE');
      await expectOutsideUntouched();
    });

    it('refuses symlinks pointing outside (file, folder, dangling) and writes nothing outside', async () => {
      await symlink(join(outsideDir, 'secret.txt'), join(root, 'file-link.txt'));
      await symlink(outsideDir, join(root, 'folder-link'));
      await symlink(join(outsideDir, 'planted.txt'), join(root, 'dangling.txt'));

      for (const path of ['file-link.txt', 'folder-link/new.txt', 'folder-link/deeper/new.txt', 'dangling.txt']) {
        const result = await write({ path, content: 'PAYLOAD', create_folders: true });
        expect(result.meta['code']).toBe('PATH_OUTSIDE_WORKSPACE');
      }
      await expectOutsideUntouched();
    });

    it('refuses the workspace root and a folder as targets', async () => {
      expect((await write({ path: '.', content: 'x' })).meta['code']).toBe('NOT_A_FILE');
      expect((await write({ path: 'docs', content: 'x' })).meta['code']).toBe('NOT_A_FILE');
    });

    it('refuses a path whose parent is a file with NOT_A_FOLDER', async () => {
      await writeFile(join(root, 'docs', 'file.txt'), 'x');
      const result = await write({ path: 'docs/file.txt/child.txt', content: 'x', create_folders: true });
      expect(result.meta['code']).toBe('NOT_A_FOLDER');
      expect(result.error).toBe("'docs/file.txt' is not a folder.");
      expect(await readFile(join(root, 'docs', 'file.txt'), 'utf8')).toBe('x');
    });

    it('refuses an unknown argument with UNKNOWN_ARGUMENT', async () => {
      expect((await write({ path: 'a.txt', content: 'x', mode: 0o777 })).meta['code']).toBe('UNKNOWN_ARGUMENT');
    });
  });

  describe('through a ToolRegistry', () => {
    it('writes through a registry call', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), tools: [tool] });

      const result = await registry.call('file_write', { path: 'docs/a.txt', content: 'hello' });

      expect(result.success).toBe(true);
      expect(await readFile(join(root, 'docs', 'a.txt'), 'utf8')).toBe('hello');
    });
  });
});
