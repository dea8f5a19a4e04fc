import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { Workspace } from '../../sandbox/workspace.js';

/**
 * Finds a bare program name on a `PATH` value, as `execvp` would, but only in absolute folders
 * outside the workspace: an empty or relative entry (which means the current folder) or a folder of
 * the workspace would let a file the model wrote run under an allowlisted name. Returns the absolute
 * path of the first executable regular file, or null.
 */
export async function resolveShellProgram(program: string, pathValue: string, workspace: Workspace): Promise<string | null> {
  for (const folder of pathValue.split(':')) {
    if (folder === '' || !isAbsolute(folder)) continue;
    const real = await realpath(folder).catch(() => null);
    if (real === null || workspace.contains(real) || workspace.contains(folder)) continue;
    const candidate = join(folder, program);
    try {
      if (!(await stat(candidate)).isFile()) continue;
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here (or not executable): try the next folder.
    }
  }
  return null;
}
