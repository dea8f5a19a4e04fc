import { randomBytes } from 'node:crypto';
import { constants, realpathSync, statSync, type Stats } from 'node:fs';
import { lstat, open, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, isAbsolute, join, parse, posix, relative, sep } from 'node:path';
import { MilpaError } from '@milpa/core';
import { ToolError } from '../lifecycle/tool-error.js';
import { fileSystemRefusal, shownPath } from './file-system-refusal.js';
import { openedFilePath } from './opened-file-path.js';
import { sensitivePathReason } from './sensitive-paths.js';

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
/** The longest path the file systems we run on accept (Linux PATH_MAX, bytes with the final NUL), and the longest name. */
const MAX_PATH_BYTES = 4095;
const MAX_NAME_BYTES = 255;

/** The code of a path refused for lying outside the workspace. */
export const PATH_OUTSIDE_WORKSPACE = 'PATH_OUTSIDE_WORKSPACE';

/**
 * The folder the file tools may touch. Every path a model gives is taken relative to the root,
 * resolved after following symlinks, and refused (`PATH_OUTSIDE_WORKSPACE`) unless the result lies
 * inside the root: `..`, absolute paths, encoded separators, NUL bytes and symlinks that point out
 * are all refused. Files are opened without following a final symlink and checked again after
 * opening: where the open descriptor really points (on Linux through `/proc/self/fd`, elsewhere by
 * resolving the path again and comparing device and inode) must be the path resolved, inside the
 * root and not sensitive, so a folder swapped for a symlink between the check and the open is
 * caught too. Files with more than one hard link are refused (`HARD_LINK`): another name may be a
 * secret or lie outside the root. File-system errors become typed refusals naming the
 * workspace-relative path only, never the host's absolute path.
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
    if (Buffer.byteLength(lexical) > MAX_PATH_BYTES) throw fileSystemRefusal({ code: 'ENAMETOOLONG' }, given);
    // The deepest part that exists is resolved through its symlinks; the rest is appended as named.
    let existing = lexical;
    const missing: string[] = [];
    for (;;) {
      try {
        await lstat(existing);
        break;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw fileSystemRefusal(error, given);
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
      throw fileSystemRefusal(error, given);
    }
    const absolute = missing.length === 0 ? real : join(real, ...missing);
    if (!this.contains(real) || !this.contains(absolute)) throw outside(given);
    const exists = missing.length === 0;
    if (options.mustExist === true && !exists) {
      throw new ToolError('NOT_FOUND', `No file or folder at '${shownPath(given)}' in the workspace.`);
    }
    return { absolute, relative: this.relativeOf(absolute), exists };
  }

  /**
   * Opens an existing regular file for reading, refusing symlinks swapped in after `resolve`, a
   * descriptor that turns out to point anywhere but the path resolved (outside the root:
   * `PATH_OUTSIDE_WORKSPACE`; a sensitive file: `SENSITIVE_PATH`; elsewhere: `FILE_CHANGED`), and
   * files with more than one hard link (`HARD_LINK`).
   */
  async openForRead(path: WorkspacePath): Promise<WorkspaceFile> {
    let handle: FileHandle;
    try {
      handle = await open(path.absolute, constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw outside(path.relative);
      throw fileSystemRefusal(error, path.relative);
    }
    try {
      const stats = await handle.stat();
      await this.#verifyOpened(handle, stats, path);
      if (!stats.isFile()) throw new ToolError('NOT_A_FILE', `'${path.relative}' is not a regular file.`);
      refuseHardLinks(stats, path.relative);
      return { path, handle, stats };
    } catch (error) {
      await handle.close();
      throw fileSystemRefusal(error, path.relative);
    }
  }

  /**
   * Writes `data` to `path` atomically: a new temporary file in the same folder, checked once open,
   * written, flushed and renamed over the target. A reader sees the old content or the new, never
   * part of it. The target must not be a symlink, a file with more than one hard link (`HARD_LINK`)
   * or a file with an executable bit (`EXECUTABLE_FILE`). The file written never has an executable
   * bit: a new file gets mode 0644 whatever the process umask, a replaced one keeps its mode.
   */
  async writeAtomic(path: WorkspacePath, data: string | Uint8Array): Promise<void> {
    try {
      await this.#writeAtomic(path, data);
    } catch (error) {
      throw fileSystemRefusal(error, path.relative);
    }
  }

  async #writeAtomic(path: WorkspacePath, data: string | Uint8Array): Promise<void> {
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
    if (existing !== null) {
      refuseHardLinks(existing, path.relative);
      if ((existing.mode & 0o111) !== 0) {
        throw new ToolError(
          'EXECUTABLE_FILE',
          `Refused to replace '${path.relative}': it is executable (mode ${(existing.mode & 0o777).toString(8)}), and the file ` +
            `tools never change programs.`,
        );
      }
    }
    // Set on the open descriptor (fchmod), which the umask does not touch; never an executable bit.
    const mode = existing === null ? 0o644 : existing.mode & 0o666;
    const temporary = join(folder, `.${parse(path.absolute).base}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    let renamed = false;
    // Where the temporary file really is: if a folder was swapped before it was created, it is
    // removed from there, not from wherever its path leads now.
    let placed = temporary;
    try {
      const actual = await openedFilePath(handle, await handle.stat(), temporary);
      if (actual !== null) placed = actual;
      this.#checkOpened(actual, { absolute: temporary, relative: path.relative, exists: true });
      await handle.chmod(mode);
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
        await unlink(placed).catch(() => undefined);
      }
    }
  }

  /**
   * Checks where an open descriptor really points: it must be the path resolved, inside the root,
   * and not a sensitive path (a folder on the way may have been swapped for a symlink since).
   */
  async #verifyOpened(handle: FileHandle, stats: Stats, path: WorkspacePath): Promise<void> {
    this.#checkOpened(await openedFilePath(handle, stats, path.absolute), path);
  }

  /** Refuses an opened file whose real path (`actual`, null when unknown) is not `path`, or is outside or sensitive. */
  #checkOpened(actual: string | null, path: WorkspacePath): void {
    if (actual === null) throw changed(path.relative);
    if (!this.contains(actual)) throw outside(path.relative);
    const reason = sensitivePathReason(this.relativeOf(actual));
    if (reason !== null) {
      throw new ToolError('SENSITIVE_PATH', `Refused '${path.relative}': once opened it led to a file that holds secrets (${reason}).`);
    }
    if (actual !== path.absolute) throw changed(path.relative);
  }

  #checkSyntax(input: unknown): string {
    if (typeof input !== 'string' || input.trim() === '') {
      throw new ToolError('INVALID_PATH', 'path must be a non-empty path relative to the workspace root.');
    }
    if (input.includes('\0')) throw new ToolError(PATH_OUTSIDE_WORKSPACE, 'path must not contain NUL bytes.');
    if (Buffer.byteLength(input) > MAX_PATH_BYTES || input.split('/').some((name) => Buffer.byteLength(name) > MAX_NAME_BYTES)) {
      throw fileSystemRefusal({ code: 'ENAMETOOLONG' }, input);
    }
    if (isAbsolute(input) || /^[A-Za-z]:/.test(input) || input.startsWith('~')) {
      throw new ToolError(PATH_OUTSIDE_WORKSPACE, `'${shownPath(input)}' is absolute: give a path relative to the workspace root.`);
    }
    if (input.includes('\\'))
      throw new ToolError(PATH_OUTSIDE_WORKSPACE, `'${shownPath(input)}' contains a backslash: use '/' between folders.`);
    if (ENCODED.test(input)) {
      throw new ToolError(
        PATH_OUTSIDE_WORKSPACE,
        `'${shownPath(input)}' contains an encoded '.', '/', '\\' or NUL: give the path as plain text.`,
      );
    }
    return input;
  }
}

function outside(given: string): ToolError {
  return new ToolError(
    PATH_OUTSIDE_WORKSPACE,
    `'${shownPath(given)}' is outside the workspace: only paths inside the workspace root can be used.`,
  );
}

function changed(given: string): ToolError {
  return new ToolError(
    'FILE_CHANGED',
    `'${given}' changed while it was being opened (a folder on its way was moved or replaced); try again.`,
  );
}

/** Refuses a file with more than one name: the other may be a secret, or lie outside the workspace. */
function refuseHardLinks(stats: Stats, given: string): void {
  if (stats.nlink > 1) {
    throw new ToolError(
      'HARD_LINK',
      `Refused '${given}': it has ${stats.nlink} hard links, and a file with another name may be a secret or lie outside the workspace.`,
      { details: { links: stats.nlink } },
    );
  }
}
