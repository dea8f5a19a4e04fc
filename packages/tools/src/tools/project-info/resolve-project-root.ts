import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, parse, resolve } from 'node:path';
import { ToolError } from '../../lifecycle/tool-error.js';
import { shownPath } from '../../sandbox/file-system-refusal.js';
import { sensitivePathReason } from '../../sandbox/sensitive-paths.js';
import { PATH_OUTSIDE_WORKSPACE, type Workspace, type WorkspacePath } from '../../sandbox/workspace.js';

const isFilesystemRoot = (absolute: string): boolean => parse(absolute).root === absolute;

/**
 * Resolves the folder `project_info` describes: `projectRoot` (absolute, or relative to the
 * workspace root; default the workspace root), then the model's `path` (relative to the workspace
 * root) when given. Checked on every call, since a folder can vanish after the tool was built.
 *
 * @throws ToolError `FILESYSTEM_ROOT_REFUSED` for the filesystem root (also through a symlink),
 *   `PROJECT_ROOT_NOT_FOUND` when the folder does not exist, `NOT_A_DIRECTORY` for a file,
 *   `PATH_OUTSIDE_WORKSPACE` outside the workspace, `SENSITIVE_PATH` for a sensitive folder.
 * @example
 * const folder = await resolveProjectRoot(workspace, undefined, 'packages/web');
 */
export async function resolveProjectRoot(
  workspace: Workspace,
  projectRoot: string | undefined,
  path: string | undefined,
): Promise<WorkspacePath> {
  const base = projectRoot ?? workspace.root;
  let folder: WorkspacePath;
  if (isAbsolute(base)) {
    // Checked before anything is read: describing `/` would walk the whole machine.
    if (isFilesystemRoot(resolve(base))) throw refuseFilesystemRoot();
    let real: string;
    try {
      real = await realpath(base);
    } catch {
      // The host's path stays out of the message: the model sees only workspace-relative paths.
      throw new ToolError('PROJECT_ROOT_NOT_FOUND', 'The configured project root does not exist: the host must fix projectRoot.');
    }
    if (isFilesystemRoot(real)) throw refuseFilesystemRoot();
    if (!workspace.contains(real)) {
      throw new ToolError(PATH_OUTSIDE_WORKSPACE, 'The configured project root is outside the workspace: the host must fix projectRoot.');
    }
    folder = { absolute: real, relative: workspace.relativeOf(real), exists: true };
  } else {
    folder = await resolveInside(workspace, base, 'PROJECT_ROOT_NOT_FOUND');
  }
  if (path !== undefined) {
    folder = await resolveInside(workspace, path, 'NOT_FOUND');
    const reason = sensitivePathReason(folder.relative) ?? sensitivePathReason(path);
    if (reason !== null)
      throw new ToolError('SENSITIVE_PATH', `'${folder.relative}' cannot be described: ${reason}.`, { details: { path: folder.relative } });
  }
  const stats = await stat(folder.absolute).catch(() => null);
  if (stats === null) throw new ToolError('PROJECT_ROOT_NOT_FOUND', `The project folder '${folder.relative}' does not exist.`);
  if (!stats.isDirectory()) throw new ToolError('NOT_A_DIRECTORY', `'${folder.relative}' is a file: give a folder.`);
  return folder;
}

async function resolveInside(workspace: Workspace, given: string, missingCode: string): Promise<WorkspacePath> {
  try {
    return await workspace.resolve(given, { mustExist: true });
  } catch (error) {
    if (error instanceof ToolError && error.code === 'NOT_FOUND') {
      throw new ToolError(missingCode, `No folder at '${shownPath(given)}' in the workspace.`);
    }
    throw error;
  }
}

function refuseFilesystemRoot(): ToolError {
  return new ToolError('FILESYSTEM_ROOT_REFUSED', 'The project root must not be the filesystem root: give a project folder.');
}
