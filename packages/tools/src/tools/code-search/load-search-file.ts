import type { Workspace, WorkspacePath } from '../../sandbox/workspace.js';
import { ToolError } from '../../lifecycle/tool-error.js';

/** Files larger than this are not searched. */
const MAX_FILE_BYTES = 1024 * 1024;
/** Bytes looked at for a NUL to tell a binary file. */
const BINARY_PROBE_BYTES = 8192;

/** How many files and folders a search left out, by why. */
export interface SearchSkipCounts {
  /** Folders not entered (dependencies, VCS data, editor state). */
  directories: number;
  /** Sensitive folders and secret files, and files with more than one hard link (another name may be a secret). */
  sensitive: number;
  /** Symlinks, never followed. */
  symlinks: number;
  /** Files over 1 MiB. */
  large: number;
  /** Files with a NUL in their first 8 KiB. */
  binary: number;
  /** Files and folders that could not be read. */
  unreadable: number;
}

/** A file read for searching, split into lines. */
export interface SearchFile {
  /** Where the file is. */
  readonly path: WorkspacePath;
  /** Its lines, without line ends (and without a leading byte-order mark). */
  readonly lines: readonly string[];
}

function splitLines(text: string): string[] {
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split(/\r?\n/);
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * Reads a file for searching, or null (counted in `skipped`) when it is large, binary, unreadable,
 * a swapped-in symlink, a file that turns out sensitive once open, or one with more than one hard link.
 *
 * @example
 * const file = await loadSearchFile(workspace, path, skipped);
 */
export async function loadSearchFile(workspace: Workspace, path: WorkspacePath, skipped: SearchSkipCounts): Promise<SearchFile | null> {
  let file;
  try {
    file = await workspace.openForRead(path);
  } catch (error) {
    const code = error instanceof ToolError ? error.code : null;
    if (code === 'PATH_OUTSIDE_WORKSPACE') skipped.symlinks += 1;
    else if (code === 'SENSITIVE_PATH' || code === 'HARD_LINK') skipped.sensitive += 1;
    else skipped.unreadable += 1;
    return null;
  }
  try {
    if (file.stats.size > MAX_FILE_BYTES) {
      skipped.large += 1;
      return null;
    }
    const buffer = await file.handle.readFile();
    if (buffer.length > MAX_FILE_BYTES) {
      skipped.large += 1;
      return null;
    }
    if (buffer.subarray(0, BINARY_PROBE_BYTES).includes(0)) {
      skipped.binary += 1;
      return null;
    }
    return { path, lines: splitLines(buffer.toString('utf8')) };
  } catch {
    skipped.unreadable += 1;
    return null;
  } finally {
    await file.handle.close();
  }
}
