import { mkdir, mkdtemp, open, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DESCRIPTOR_FOLDER, openedFilePath } from './opened-file-path.js';

let base: string;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'milpa-opened-'));
  await mkdir(join(base, 'd'));
  await mkdir(join(base, 'secret'));
  await writeFile(join(base, 'd', 'config'), 'harmless');
  await writeFile(join(base, 'secret', 'config'), 'secret');
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

// `null` as the descriptor folder runs the check used where there is no /proc (macOS).
describe.each([
  ['the descriptor folder', DESCRIPTOR_FOLDER],
  ['the inode check (no descriptor folder)', null],
])('openedFilePath through %s', (_, folder) => {
  it('names the file opened', async () => {
    const handle = await open(join(base, 'd', 'config'), 'r');
    try {
      expect(await openedFilePath(handle, await handle.stat(), join(base, 'd', 'config'), folder)).toBe(join(base, 'd', 'config'));
    } finally {
      await handle.close();
    }
  });

  it('never names the expected path when the folder was swapped for a symlink before the open', async () => {
    await rename(join(base, 'd'), join(base, 'd-real'));
    await symlink(join(base, 'secret'), join(base, 'd'));
    const handle = await open(join(base, 'd', 'config'), 'r');
    try {
      const actual = await openedFilePath(handle, await handle.stat(), join(base, 'd', 'config'), folder);
      expect(actual).toBe(join(base, 'secret', 'config'));
    } finally {
      await handle.close();
    }
  });

  it('tells that the path no longer leads to the file opened when the folder is swapped back after the open', async () => {
    await rename(join(base, 'd'), join(base, 'd-real'));
    await symlink(join(base, 'secret'), join(base, 'd'));
    const handle = await open(join(base, 'd', 'config'), 'r');
    await rm(join(base, 'd'));
    await rename(join(base, 'd-real'), join(base, 'd'));
    try {
      const actual = await openedFilePath(handle, await handle.stat(), join(base, 'd', 'config'), folder);
      // Through /proc: the secret's real path; by inode: null (the path now leads to another file).
      expect(actual).not.toBe(join(base, 'd', 'config'));
    } finally {
      await handle.close();
    }
  });
});

describe('openedFilePath without a descriptor folder', () => {
  it('answers null when the path is gone', async () => {
    const handle = await open(join(base, 'd', 'config'), 'r');
    try {
      const stats = await handle.stat();
      await rm(join(base, 'd', 'config'));
      expect(await openedFilePath(handle, stats, join(base, 'd', 'config'), null)).toBeNull();
    } finally {
      await handle.close();
    }
  });

  it('falls back to the inode check when the descriptor folder does not exist', async () => {
    const handle = await open(join(base, 'd', 'config'), 'r');
    try {
      const stats = await handle.stat();
      expect(await openedFilePath(handle, stats, join(base, 'd', 'config'), join(base, 'no-proc'))).toBe(join(base, 'd', 'config'));
    } finally {
      await handle.close();
    }
  });
});
