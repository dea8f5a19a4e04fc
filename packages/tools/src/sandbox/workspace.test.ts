import { MilpaError } from '@milpa/core';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolError } from '../lifecycle/tool-error.js';
import { PATH_OUTSIDE_WORKSPACE, Workspace } from './workspace.js';

let base: string;
let root: string;
let outsideDir: string;
let workspace: Workspace;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'milpa-workspace-'));
  root = join(base, 'root');
  outsideDir = join(base, 'outside');
  await mkdir(join(root, 'sub'), { recursive: true });
  await mkdir(outsideDir);
  await writeFile(join(root, 'inside.txt'), 'inside');
  await writeFile(join(root, 'sub', 'nested.txt'), 'nested');
  await writeFile(join(outsideDir, 'secret.txt'), 'OUTSIDE SECRET');
  workspace = Workspace.at(root);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function refusal(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

async function readAll(relativePath: string): Promise<string> {
  const file = await workspace.openForRead(await workspace.resolve(relativePath, { mustExist: true }));
  try {
    return await file.handle.readFile('utf8');
  } finally {
    await file.handle.close();
  }
}

describe('Workspace', () => {
  describe('at', () => {
    it('throws INVALID_ARGUMENT when the root does not exist, is a file, is empty or is the filesystem root', () => {
      for (const bad of [join(base, 'missing'), join(root, 'inside.txt'), '', '/']) {
        expect(() => Workspace.at(bad)).toThrow(MilpaError);
      }
    });

    it('resolves a symlinked root to its real path', async () => {
      await symlink(root, join(base, 'alias'));
      expect(Workspace.at(join(base, 'alias')).root).toBe(workspace.root);
    });
  });

  describe('resolve', () => {
    it('resolves a plain relative path inside the root', async () => {
      const path = await workspace.resolve('sub/nested.txt');
      expect(path).toEqual({ absolute: join(workspace.root, 'sub', 'nested.txt'), relative: 'sub/nested.txt', exists: true });
    });

    it('resolves a missing file under an existing folder with exists false', async () => {
      const path = await workspace.resolve('sub/new/file.txt');
      expect(path.exists).toBe(false);
      expect(path.relative).toBe('sub/new/file.txt');
    });

    it('resolves an inner .. that stays inside', async () => {
      expect((await workspace.resolve('sub/../inside.txt')).relative).toBe('inside.txt');
    });

    it.each([['..'], ['../outside/secret.txt'], ['a/../../x'], ['sub/../../outside/secret.txt'], ['./../root/../outside/secret.txt']])(
      'refuses %s with PATH_OUTSIDE_WORKSPACE',
      async (given) => {
        const error = await refusal(workspace.resolve(given));
        expect(error.code).toBe(PATH_OUTSIDE_WORKSPACE);
        expect(error.message).toContain('outside the workspace');
      },
    );

    it.each([
      ['/etc/passwd', 'absolute'],
      ['~/.ssh/id_rsa', 'absolute'],
      ['~', 'absolute'],
      ['C:\\Windows\\win.ini', 'absolute'],
      ['c:/Windows/win.ini', 'absolute'],
      ['sub\\..\\..\\outside\\secret.txt', 'backslash'],
      ['%2e%2e%2foutside/secret.txt', 'encoded'],
      ['..%2Foutside', 'encoded'],
      ['sub%5c..', 'encoded'],
      ['inside.txt%00.png', 'encoded'],
      ['inside.txt\0.png', 'NUL'],
    ])('refuses %s with PATH_OUTSIDE_WORKSPACE (%s)', async (given, reason) => {
      const error = await refusal(workspace.resolve(given));
      expect(error.code).toBe(PATH_OUTSIDE_WORKSPACE);
      expect(error.message).toContain(reason);
    });

    it.each([[''], ['   '], [42], [null], [undefined]])('refuses %s with INVALID_PATH', async (given) => {
      expect((await refusal(workspace.resolve(given))).code).toBe('INVALID_PATH');
    });

    it('refuses a missing path with NOT_FOUND when mustExist is set', async () => {
      expect((await refusal(workspace.resolve('nope.txt', { mustExist: true }))).code).toBe('NOT_FOUND');
    });

    it('refuses a symlinked file pointing outside', async () => {
      await symlink(join(outsideDir, 'secret.txt'), join(root, 'link.txt'));
      expect((await refusal(workspace.resolve('link.txt'))).code).toBe(PATH_OUTSIDE_WORKSPACE);
    });

    it('refuses a path through a symlinked folder pointing outside, also for a missing file below it', async () => {
      await symlink(outsideDir, join(root, 'escape'));
      expect((await refusal(workspace.resolve('escape/secret.txt'))).code).toBe(PATH_OUTSIDE_WORKSPACE);
      expect((await refusal(workspace.resolve('escape/new.txt'))).code).toBe(PATH_OUTSIDE_WORKSPACE);
      expect((await refusal(workspace.resolve('escape'))).code).toBe(PATH_OUTSIDE_WORKSPACE);
    });

    it('refuses a dangling symlink, whose target cannot be checked', async () => {
      await symlink(join(outsideDir, 'not-yet.txt'), join(root, 'dangling.txt'));
      expect((await refusal(workspace.resolve('dangling.txt'))).code).toBe(PATH_OUTSIDE_WORKSPACE);
    });

    it('follows a symlink that stays inside the root to its target', async () => {
      await symlink(join(root, 'sub', 'nested.txt'), join(root, 'alias.txt'));
      expect((await workspace.resolve('alias.txt')).relative).toBe('sub/nested.txt');
    });
  });

  describe('openForRead', () => {
    it('opens a regular file inside the root', async () => {
      expect(await readAll('sub/nested.txt')).toBe('nested');
    });

    it('refuses a file swapped for a symlink to an outside file between resolve and open, reading nothing outside', async () => {
      const path = await workspace.resolve('inside.txt', { mustExist: true });
      await unlink(join(root, 'inside.txt'));
      await symlink(join(outsideDir, 'secret.txt'), join(root, 'inside.txt'));

      const error = await refusal(workspace.openForRead(path));

      expect(error.code).toBe(PATH_OUTSIDE_WORKSPACE);
      expect(error.message).not.toContain('OUTSIDE SECRET');
    });

    it('refuses a folder swapped for a symlink to an outside folder between resolve and open', async () => {
      await writeFile(join(outsideDir, 'nested.txt'), 'OUTSIDE SECRET');
      const path = await workspace.resolve('sub/nested.txt', { mustExist: true });
      await rename(join(root, 'sub'), join(root, 'sub-moved'));
      await symlink(outsideDir, join(root, 'sub'));

      expect((await refusal(workspace.openForRead(path))).code).toBe(PATH_OUTSIDE_WORKSPACE);
    });

    it('refuses a folder with NOT_A_FILE', async () => {
      expect((await refusal(workspace.openForRead(await workspace.resolve('sub')))).code).toBe('NOT_A_FILE');
    });

    it('refuses a FIFO with NOT_A_FILE without blocking on it', async () => {
      execFileSync('mkfifo', [join(root, 'pipe')]);
      const error = await refusal(workspace.openForRead(await workspace.resolve('pipe')));
      expect(error.code).toBe('NOT_A_FILE');
    });

    it('refuses a file removed after resolve with NOT_FOUND', async () => {
      const path = await workspace.resolve('inside.txt');
      await unlink(join(root, 'inside.txt'));
      expect((await refusal(workspace.openForRead(path))).code).toBe('NOT_FOUND');
    });
  });

  describe('writeAtomic', () => {
    it('writes a new file and replaces an existing one, leaving no temporary file behind', async () => {
      await workspace.writeAtomic(await workspace.resolve('sub/new.txt'), 'first');
      await workspace.writeAtomic(await workspace.resolve('sub/new.txt'), 'second');

      expect(await readFile(join(root, 'sub', 'new.txt'), 'utf8')).toBe('second');
      expect((await readdir(join(root, 'sub'))).sort()).toEqual(['nested.txt', 'new.txt']);
    });

    it('refuses with NOT_FOUND when the folder does not exist', async () => {
      expect((await refusal(workspace.writeAtomic(await workspace.resolve('missing/new.txt'), 'x'))).code).toBe('NOT_FOUND');
    });

    it('never writes outside when the folder is swapped for a symlink to an outside folder before the write', async () => {
      const path = await workspace.resolve('sub/new.txt');
      await rename(join(root, 'sub'), join(root, 'sub-moved'));
      await symlink(outsideDir, join(root, 'sub'));

      expect((await refusal(workspace.writeAtomic(path, 'PAYLOAD'))).code).toBe(PATH_OUTSIDE_WORKSPACE);
      expect(await readdir(outsideDir)).toEqual(['secret.txt']);
      expect(await readFile(join(outsideDir, 'secret.txt'), 'utf8')).toBe('OUTSIDE SECRET');
    });

    it('never replaces an outside file when the target is swapped for a symlink to it', async () => {
      const path = await workspace.resolve('inside.txt');
      await unlink(join(root, 'inside.txt'));
      await symlink(join(outsideDir, 'secret.txt'), join(root, 'inside.txt'));

      expect((await refusal(workspace.writeAtomic(path, 'PAYLOAD'))).code).toBe('NOT_A_FILE');
      expect(await readFile(join(outsideDir, 'secret.txt'), 'utf8')).toBe('OUTSIDE SECRET');
    });

    it('refuses to write over a folder', async () => {
      expect((await refusal(workspace.writeAtomic(await workspace.resolve('sub'), 'x'))).code).toBe('NOT_A_FILE');
    });
  });

  describe('contains and relativeOf', () => {
    it('tells inside from outside, and a sibling sharing the root as a prefix is outside', () => {
      expect(workspace.contains(workspace.root)).toBe(true);
      expect(workspace.contains(join(workspace.root, 'a', 'b'))).toBe(true);
      expect(workspace.contains(`${workspace.root}-other/x`)).toBe(false);
      expect(workspace.contains(join(workspace.root, '..'))).toBe(false);
      expect(workspace.contains(join(workspace.root, '..', 'x'))).toBe(false);
      expect(workspace.contains(join(workspace.root, '..foo'))).toBe(true);
      expect(workspace.contains(join(workspace.root, 'a', '..b', 'c'))).toBe(true);
      expect(workspace.relativeOf(workspace.root)).toBe('.');
      expect(workspace.relativeOf(join(workspace.root, 'a', 'b'))).toBe('a/b');
    });
  });
});
