import { randomBytes } from 'node:crypto';
import { constants, realpathSync, statSync, type Stats } from 'node:fs';
import { lstat, open, readlink, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, isAbsolute, join, parse, posix, relative, sep } from 'node:path';
import { MilpaError } from '@milpa/core';
import { ToolError } from '../lifecycle/tool-error.js';

/** A path inside the workspace: its real absolute path and its path relative to the root (`/`-separated). */
export interface WorkspacePath {
  /** The absolute path, symlinks resolved (for a missing file: its resolved folder plus its name). */
  readonly absolute: string;
  /** The path relative to the workspace root, with `/` separators; `.` for the root itself. */
  readonly relative: string;
  /** True when something exists at the path. */
  readonly exists: boolean;
}

/** An open file inside the workspace, checked after opening. Close it. */
export interface WorkspaceFile {
  /** The path the file was opened at. */
  readonly path: WorkspacePath;
  /** The open handle (read-only); the caller closes it. */
  readonly handle: FileHandle;
  /** The file's stats, taken from the open handle. */
  readonly stats: Stats;
}

const ENCODED = /%(?:2e|2f|5c|00)/i;
const PROC_FD = process.platform === 'linux' ? '/proc/self/fd' : null;

/** The code of a path refused for lying outside the workspace. */
export const PATH_OUTSIDE_WORKSPACE = 'PATH_OUTSIDE_WORKSPACE';

/**
 * The folder the file tools may touch. Every path a model gives is taken relative to the root,
 * resolved after following symlinks, and refused (`PATH_OUTSIDE_WORKSPACE`) unless the result lies
 * inside the root: `..`, absolute paths, encoded separators, NUL bytes and symlinks that point out
 * are all refused. Files are opened without following a final symlink and checked again after
 * opening (on Linux through `/proc/self/fd`), so a symlink swapped in between the check and the
 * open is caught too.
 */
export class Workspace {
  /** The real absolute path of the root. */
  readonly root: string;

  private constructor(root: string) {
    this.root = root;
  }

  /**
   * The workspace at `root` (resolved to its real path, once, now).
   * @throws MilpaError `INVALID_ARGUMENT` when `root` is not an existing folder, or is the filesystem root.
   */
  static at(root: string): Workspace {
    if (typeof root !== 'string' || root === '') {
      throw new MilpaError('workspaceRoot must be a folder path.', { code: 'INVALID_ARGUMENT' });
    }
    let real: string;
    try {
      real = realpathSync(root);
    } catch (error) {
      throw new MilpaError(`workspaceRoot ${root} does not exist.`, { code: 'INVALID_ARGUMENT', cause: error });
    }
    if (!statSync(real).isDirectory()) throw new MilpaError(`workspaceRoot ${root} is not a folder.`, { code: 'INVALID_ARGUMENT' });
    if (parse(real).root === real) {
      throw new MilpaError('workspaceRoot must not be the filesystem root: give the tools a project or data folder.', {
        code: 'INVALID_ARGUMENT',
      });
    }
    return new Workspace(real);
  }

  /** The `/`-separated path of `absolute` relative to the root (`.` for the root). */
  relativeOf(absolute: string): string {
    const path = relative(this.root, absolute);
    return path === '' ? '.' : path.split(sep).join('/');
  }

  /** True when `absolute` is the root or inside it. */
  contains(absolute: string): boolean {
    const path = relative(this.root, absolute);
    // '..foo' is a name inside the root; only '..' itself or a path starting with '../' leaves it.
    return path === '' || (path !== '..' && !path.startsWith(`..${sep}`) && !isAbsolute(path));
  }

  /**
   * Resolves a path the model gave. Refused with `PATH_OUTSIDE_WORKSPACE` (a `ToolError`) when it is
   * not a plain relative path or leads outside the root, and `NOT_FOUND` when `mustExist` and nothing
   * is there.
   */
  async resolve(input: unknown, options: { readonly mustExist?: boolean } = {}): Promise<WorkspacePath> {
    const given = this.#checkSyntax(input);
    const lexical = join(this.root, posix.normalize(given));
    if (!this.contains(lexical)) throw outside(given);
    // The deepest part that exists is resolved through its symlinks; the rest is appended as named.
    let existing = lexical;
    const missing: string[] = [];
    for (;;) {
      try {
        await lstat(existing);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
        if (existing === this.root) break;
        missing.unshift(existing.slice(dirname(existing).length + 1));
        existing = dirname(existing);
      }
    }
    let real: string;
    try {
      real = await realpath(existing);
    } catch (error) {
      // A dangling symlink: where it points is unknown here, so it is treated as leading out.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw outside(given);
      throw error;
    }
    const absolute = missing.length === 0 ? real : join(real, ...missing);
    if (!this.contains(real) || !this.contains(absolute)) throw outside(given);
    const exists = missing.length === 0;
    if (options.mustExist === true && !exists) throw new ToolError('NOT_FOUND', `No file or folder at '${given}' in the workspace.`);
    return { absolute, relative: this.relativeOf(absolute), exists };
  }

  /**
   * Opens an existing regular file for reading, refusing symlinks swapped in after `resolve` and
   * anything that turns out to lie outside the root once open.
   */
  async openForRead(path: WorkspacePath): Promise<WorkspaceFile> {
    let handle: FileHandle;
    try {
      handle = await open(path.absolute, constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw outside(path.relative);
      if (code === 'ENOENT') throw new ToolError('NOT_FOUND', `No file at '${path.relative}' in the workspace.`);
      throw error;
    }
    try {
      await this.#verifyOpened(handle, path);
      const stats = await handle.stat();
      if (!stats.isFile()) throw new ToolError('NOT_A_FILE', `'${path.relative}' is not a regular file.`);
      return { path, handle, stats };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * Writes `data` to `path` atomically: a new temporary file in the same folder, checked once open,
   * written, flushed and renamed over the target. A reader sees the old content or the new, never
   * part of it. The target must not be a symlink.
   */
  async writeAtomic(path: WorkspacePath, data: string | Uint8Array): Promise<void> {
    const folder = dirname(path.absolute);
    const folderStats = await stat(folder).catch(() => null);
    if (folderStats === null || !folderStats.isDirectory()) {
      throw new ToolError('NOT_FOUND', `The folder of '${path.relative}' does not exist in the workspace.`);
    }
    // Checked before the temporary file is created, so a folder swapped for a symlink out of the
    // root never gets even a short-lived file; checked again before the rename below.
    if (!this.contains(await realpath(folder))) throw outside(path.relative);
    const existing = await lstat(path.absolute).catch(() => null);
    if (existing !== null && !existing.isFile()) throw new ToolError('NOT_A_FILE', `'${path.relative}' is not a regular file.`);
    const temporary = join(folder, `.${parse(path.absolute).base}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await open(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      existing?.mode ?? 0o644,
    );
    let renamed = false;
    try {
      await this.#verifyOpened(handle, { absolute: temporary, relative: this.relativeOf(temporary), exists: true });
      await handle.writeFile(data);
      await handle.sync();
      await handle.close();
      // Checked again right before the rename: the folder must still be the one inside the root.
      if (!this.contains(await realpath(folder))) throw outside(path.relative);
      await rename(temporary, path.absolute);
      renamed = true;
    } finally {
      if (!renamed) {
        await handle.close().catch(() => undefined);
        await unlink(temporary).catch(() => undefined);
      }
    }
  }

  /** Checks where an open descriptor really points (Linux); elsewhere checks the path again. */
  async #verifyOpened(handle: FileHandle, path: WorkspacePath): Promise<void> {
    const actual = PROC_FD === null ? await realpath(path.absolute) : await readlink(`${PROC_FD}/${handle.fd}`);
    if (!this.contains(actual)) throw outside(path.relative);
  }

  #checkSyntax(input: unknown): string {
    if (typeof input !== 'string' || input.trim() === '') {
      throw new ToolError('INVALID_PATH', 'path must be a non-empty path relative to the workspace root.');
    }
    if (input.includes('\0')) throw new ToolError(PATH_OUTSIDE_WORKSPACE, 'path must not contain NUL bytes.');
    if (isAbsolute(input) || /^[A-Za-z]:/.test(input) || input.startsWith('~')) {
      throw new ToolError(PATH_OUTSIDE_WORKSPACE, `'${input}' is absolute: give a path relative to the workspace root.`);
    }
    if (input.includes('\\')) throw new ToolError(PATH_OUTSIDE_WORKSPACE, `'${input}' contains a backslash: use '/' between folders.`);
    if (ENCODED.test(input)) {
      throw new ToolError(PATH_OUTSIDE_WORKSPACE, `'${input}' contains an encoded '.', '/', '\\' or NUL: give the path as plain text.`);
    }
    return input;
  }
}

function outside(given: string): ToolError {
  return new ToolError(PATH_OUTSIDE_WORKSPACE, `'${given}' is outside the workspace: only paths inside the workspace root can be used.`);
}
