import type { Dirent, Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileSystemRefusal } from '../../sandbox/file-system-refusal.js';
import { isSkippedDirectory, sensitivePathReason } from '../../sandbox/sensitive-paths.js';
import type { Workspace, WorkspacePath } from '../../sandbox/workspace.js';

/** What {@link collectSearchFiles} found under a folder. */
export interface SearchFileList {
  /** The regular files to search, sorted by their path relative to the workspace root. */
  readonly files: readonly WorkspacePath[];
  /** Folders not entered: dependencies, VCS data, editor state, sensitive folders. */
  readonly skippedDirectories: number;
  /** Files not listed because they hold secrets (`.env`, `id_rsa`, `*.pem`, …). */
  readonly skippedSensitive: number;
  /** Symlinks, never followed (to files or folders alike). */
  readonly skippedSymlinks: number;
  /** Folders that could not be read. */
  readonly unreadableDirectories: number;
  /** True when the walk stopped at `maxFiles`. */
  readonly truncated: boolean;
}

const byName = (left: Dirent, right: Dirent): number => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0);

/**
 * Lists the files a search may read under `start` (a folder, or one file), without following any
 * symlink: a symlink may point out of the workspace or into a skipped folder, so none is entered
 * or read. Folders named in `SKIPPED_DIRECTORIES` or sensitive are not entered; secret files are
 * left out. Folders are walked in name order and the list is sorted by path, so the same tree
 * always gives the same list.
 *
 * @example
 * const { files } = await collectSearchFiles(workspace, await workspace.resolve('src', { mustExist: true }), 10_000);
 */
export async function collectSearchFiles(workspace: Workspace, start: WorkspacePath, maxFiles: number): Promise<SearchFileList> {
  const files: WorkspacePath[] = [];
  let skippedDirectories = 0;
  let skippedSensitive = 0;
  let skippedSymlinks = 0;
  let unreadableDirectories = 0;
  let truncated = false;

  let startStats: Stats;
  try {
    startStats = await lstat(start.absolute);
  } catch (error) {
    // The file may have gone since it was resolved (or a folder on its way swapped): a typed refusal, no host path.
    throw fileSystemRefusal(error, start.relative);
  }
  if (startStats.isFile()) {
    files.push(start);
  } else if (startStats.isDirectory()) {
    const pending: string[] = [start.absolute];
    while (pending.length > 0 && !truncated) {
      const folder = pending.pop() as string;
      let entries: Dirent[];
      try {
        entries = await readdir(folder, { withFileTypes: true });
      } catch {
        unreadableDirectories += 1;
        continue;
      }
      entries.sort(byName);
      const subfolders: string[] = [];
      for (const entry of entries) {
        const absolute = join(folder, entry.name);
        const relative = workspace.relativeOf(absolute);
        if (entry.isSymbolicLink()) {
          skippedSymlinks += 1;
        } else if (entry.isDirectory()) {
          if (isSkippedDirectory(entry.name) || sensitivePathReason(relative) !== null) skippedDirectories += 1;
          else subfolders.push(absolute);
        } else if (entry.isFile()) {
          if (sensitivePathReason(relative) !== null) {
            skippedSensitive += 1;
          } else if (files.length >= maxFiles) {
            truncated = true;
            break;
          } else {
            files.push({ absolute, relative, exists: true });
          }
        }
      }
      // Pushed in reverse so that the stack pops them in name order.
      for (let index = subfolders.length - 1; index >= 0; index -= 1) pending.push(subfolders[index] as string);
    }
  }
  files.sort((left, right) => (left.relative < right.relative ? -1 : left.relative > right.relative ? 1 : 0));
  return { files, skippedDirectories, skippedSensitive, skippedSymlinks, unreadableDirectories, truncated };
}
