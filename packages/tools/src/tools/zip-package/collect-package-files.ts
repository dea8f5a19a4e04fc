import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ToolError } from '../../lifecycle/tool-error.js';
import { isSkippedDirectory, sensitivePathReason } from '../../sandbox/sensitive-paths.js';
import type { Workspace, WorkspacePath } from '../../sandbox/workspace.js';

/** A file `zip_package` will add, resolved through the workspace. */
export interface PackageFile {
  /** The file inside the workspace. */
  readonly path: WorkspacePath;
  /** Its path inside the zipped folder, `/`-separated. */
  readonly entryName: string;
  /** Its size in bytes when listed; the zip fails if it changes before it is read. */
  readonly size: number;
  /** Its modification time, kept in the zip entry. */
  readonly mtime: Date;
  /** Its permission bits (executable or not). */
  readonly mode: number;
}

/** A path `zip_package` left out, with why. */
export interface SkippedPath {
  /** The path relative to the workspace root. */
  readonly path: string;
  /** Why it was left out. */
  readonly reason: string;
}

/** The bounds of {@link collectPackageFiles}. */
export interface PackageLimits {
  /** The most files. */
  readonly maxFiles: number;
  /** The most bytes of file content in all. */
  readonly maxBytes: number;
}

/**
 * Lists the regular files under `folder` for `zip_package`, sorted by entry name (code-unit order)
 * so the zip is the same for the same files. Symlinks are never followed or included; sensitive
 * paths (`sensitivePathReason`), skipped folders (`node_modules`, `.git`, …), files with more than
 * one hard link and anything that is not a regular file are left out and reported. Every file is resolved through the workspace, so
 * nothing outside the root is listed.
 *
 * @throws ToolError `TOO_MANY_FILES` or `PACKAGE_TOO_LARGE` past `limits`; the call's abort reason when `signal` aborts.
 */
export async function collectPackageFiles(
  workspace: Workspace,
  folder: WorkspacePath,
  limits: PackageLimits,
  signal: AbortSignal,
): Promise<{ readonly files: PackageFile[]; readonly skipped: SkippedPath[]; readonly bytes: number }> {
  const files: PackageFile[] = [];
  const skipped: SkippedPath[] = [];
  let bytes = 0;
  const pending: string[] = [''];
  while (pending.length > 0) {
    signal.throwIfAborted();
    const inner = pending.pop() as string;
    let entries: Dirent[];
    try {
      entries = await readdir(join(folder.absolute, inner), { withFileTypes: true });
    } catch (error) {
      skipped.push({
        path: workspacePathOf(folder, inner),
        reason: `the folder could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      });
      continue;
    }
    for (const entry of entries) {
      const entryName = inner === '' ? entry.name : `${inner}/${entry.name}`;
      const relative = workspacePathOf(folder, entryName);
      if (entry.isSymbolicLink()) {
        skipped.push({ path: relative, reason: 'it is a symlink (links are never followed)' });
        continue;
      }
      const sensitive = sensitivePathReason(relative);
      if (sensitive !== null) {
        skipped.push({ path: relative, reason: sensitive });
        continue;
      }
      if (entry.isDirectory()) {
        if (isSkippedDirectory(entry.name))
          skipped.push({ path: relative, reason: `'${entry.name}' is a dependency, version-control or editor folder` });
        else pending.push(entryName);
        continue;
      }
      if (!entry.isFile()) {
        skipped.push({ path: relative, reason: 'it is not a regular file' });
        continue;
      }
      let path: WorkspacePath;
      try {
        path = await workspace.resolve(relative, { mustExist: true });
      } catch (error) {
        if (!(error instanceof ToolError)) throw error;
        skipped.push({ path: relative, reason: error.message });
        continue;
      }
      // A folder swapped for a symlink while listing would resolve elsewhere: leave such a file out.
      if (path.relative !== relative) {
        skipped.push({ path: relative, reason: 'it resolves to another path (a folder on the way changed)' });
        continue;
      }
      const stats = await lstat(path.absolute).catch((error: NodeJS.ErrnoException) => error.code ?? 'error');
      if (typeof stats === 'string') {
        skipped.push({ path: relative, reason: `the file could not be read (${stats})` });
        continue;
      }
      if (!stats.isFile()) {
        skipped.push({ path: relative, reason: 'it is not a regular file' });
        continue;
      }
      // Another name of the same file may be a secret or lie outside the workspace.
      if (stats.nlink > 1) {
        skipped.push({ path: relative, reason: `it has ${stats.nlink} hard links (files with more than one name are never zipped)` });
        continue;
      }
      if (files.length + 1 > limits.maxFiles) {
        throw new ToolError('TOO_MANY_FILES', `The folder holds more than ${limits.maxFiles} files: zip a smaller folder.`, {
          details: { max_files: limits.maxFiles },
        });
      }
      bytes += stats.size;
      if (bytes > limits.maxBytes) {
        throw new ToolError('PACKAGE_TOO_LARGE', `The files add up to more than ${limits.maxBytes} bytes: zip a smaller folder.`, {
          details: { max_bytes: limits.maxBytes },
        });
      }
      files.push({ path, entryName, size: stats.size, mtime: stats.mtime, mode: stats.mode & 0o777 });
    }
  }
  files.sort((a, b) => (a.entryName < b.entryName ? -1 : a.entryName > b.entryName ? 1 : 0));
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, skipped, bytes };
}

function workspacePathOf(folder: WorkspacePath, inner: string): string {
  if (inner === '') return folder.relative;
  return folder.relative === '.' ? inner : `${folder.relative}/${inner}`;
}
