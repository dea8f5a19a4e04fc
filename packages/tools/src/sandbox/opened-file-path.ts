import type { Stats } from 'node:fs';
import { readlink, realpath, stat, type FileHandle } from 'node:fs/promises';

/** Where Linux lists the open descriptors of this process; null where there is no such folder. */
export const DESCRIPTOR_FOLDER: string | null = process.platform === 'linux' ? '/proc/self/fd' : null;

/**
 * The real absolute path of an open file, or null when it cannot be told to be the file opened.
 *
 * - On Linux, `/proc/self/fd/<fd>` names the file the descriptor holds, whatever happened to the
 *   path since (a folder swapped for a symlink, a rename).
 * - Elsewhere (macOS, or Linux without `/proc`), the path is resolved again and the file found
 *   there must be the same file as the descriptor's (device and inode). With the file tools'
 *   refusal of files with more than one hard link, a file has one name only, so the same inode
 *   at the resolved path means that path is where the opened file lives.
 *
 * @example
 * const actual = await openedFilePath(handle, await handle.stat(), '/srv/project/src/a.ts');
 */
export async function openedFilePath(
  handle: FileHandle,
  stats: Stats,
  expected: string,
  descriptorFolder: string | null = DESCRIPTOR_FOLDER,
): Promise<string | null> {
  if (descriptorFolder !== null) {
    try {
      return await readlink(`${descriptorFolder}/${handle.fd}`);
    } catch {
      // No /proc (a container without it): fall through to the check by inode.
    }
  }
  let real: string;
  let found: Stats;
  try {
    real = await realpath(expected);
    found = await stat(real);
  } catch {
    return null;
  }
  return found.dev === stats.dev && found.ino === stats.ino ? real : null;
}
