import { ToolError } from '../lifecycle/tool-error.js';

/** The longest part of a model's path repeated in a message; the rest is cut with `…`. */
const SHOWN_PATH_LENGTH = 200;

/** A path as messages show it: cut at 200 characters, so a 4,096-character path does not fill the result. */
export function shownPath(path: string): string {
  return path.length > SHOWN_PATH_LENGTH ? `${path.slice(0, SHOWN_PATH_LENGTH)}…` : path;
}

const REFUSALS: Readonly<Record<string, { readonly code: string; readonly says: string }>> = {
  ENAMETOOLONG: { code: 'PATH_TOO_LONG', says: 'is too long for the file system (a name over 255 bytes, or the whole path over 4,096)' },
  ENOENT: { code: 'NOT_FOUND', says: 'does not exist in the workspace' },
  ENOTDIR: { code: 'NOT_FOUND', says: 'does not exist in the workspace (a part of it is a file, not a folder)' },
  EISDIR: { code: 'NOT_A_FILE', says: 'is a folder, not a file' },
  EACCES: { code: 'PERMISSION_DENIED', says: 'cannot be opened: the host does not allow it' },
  EPERM: { code: 'PERMISSION_DENIED', says: 'cannot be changed: the host does not allow it' },
  EROFS: { code: 'PERMISSION_DENIED', says: 'cannot be changed: the file system is read-only' },
  ELOOP: { code: 'PATH_OUTSIDE_WORKSPACE', says: 'is a symlink or goes through too many symlinks; symlinks are not followed here' },
  ENOSPC: { code: 'NO_SPACE', says: 'cannot be written: the disk is full' },
  EDQUOT: { code: 'NO_SPACE', says: 'cannot be written: the disk quota is used up' },
};

/**
 * A file-system error turned into a typed refusal that names only the workspace-relative path
 * (`PATH_TOO_LONG`, `NOT_FOUND`, `PERMISSION_DENIED`, …, else `FILE_SYSTEM_ERROR` with the error
 * code): the error's own message holds the host's absolute path and never reaches the model. A
 * `ToolError` is returned as it is.
 *
 * @example
 * try { await lstat(absolute); } catch (error) { throw fileSystemRefusal(error, 'src/a.ts'); }
 */
export function fileSystemRefusal(error: unknown, relativePath: string): ToolError {
  if (error instanceof ToolError) return error;
  const errno = typeof (error as NodeJS.ErrnoException | null)?.code === 'string' ? (error as NodeJS.ErrnoException).code : undefined;
  const known = errno === undefined ? undefined : REFUSALS[errno];
  const shown = shownPath(relativePath);
  if (known !== undefined) return new ToolError(known.code, `'${shown}' ${known.says}.`);
  return new ToolError('FILE_SYSTEM_ERROR', `'${shown}' could not be used: the file system answered ${errno ?? 'an error'}.`, {
    details: errno === undefined ? {} : { errno },
  });
}
