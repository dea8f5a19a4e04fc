import { MilpaError, type ToolResult } from '@milpa/core';
import { failure } from '../../lifecycle/tool-envelope.js';
import { shownPath } from '../../sandbox/file-system-refusal.js';
import { buildPathReason, executablePathReason, phpPathReason, sensitivePathReason } from '../../sandbox/sensitive-paths.js';

/**
 * Why a path may not be written or edited by the model (a secret; a build, hook or shell start-up
 * file or a VCS/CI/editor/dependency folder, unless it matches one of `allowedBuildFiles`; or, with
 * `executables`, a script or program), as a failure result; null when it may be.
 */
export function refuseProtectedPath(
  relativePath: string,
  action: 'write' | 'edit',
  executables: boolean,
  allowedBuildFiles: readonly string[] = [],
): ToolResult<null> | null {
  const shown = shownPath(relativePath);
  const sensitive = sensitivePathReason(relativePath);
  if (sensitive !== null) return failure('SENSITIVE_PATH', `Refused to ${action} '${shown}': ${sensitive}.`);
  const build = buildPathReason(relativePath, allowedBuildFiles);
  if (build !== null) {
    return failure('BUILD_FILE', `Refused to ${action} '${shown}': ${build}, which the file tools leave to people.`);
  }
  const executable = executables ? executablePathReason(relativePath) : null;
  if (executable !== null)
    return failure('EXECUTABLE_FILE', `Refused to ${action} '${shown}': ${executable}, which file_write never creates.`);
  return null;
}

/** Why `file_write` may not create a PHP file, as a failure result naming the host option; null for any other file. */
export function refusePhpPath(relativePath: string): ToolResult<null> | null {
  const reason = phpPathReason(relativePath);
  if (reason === null) return null;
  return failure(
    'EXECUTABLE_FILE',
    `Refused to write '${shownPath(relativePath)}': ${reason}, which file_write creates only when the host sets allowPhpFiles.`,
  );
}

/**
 * Checks a host's `allowBuildFiles` option: a list of non-empty path patterns (a name such as
 * `Makefile`, a path such as `.vscode/tasks.json`, `*` inside a name, a leading `/` for the root only).
 *
 * @throws MilpaError `INVALID_ARGUMENT` when it is not such a list.
 */
export function checkAllowedBuildFiles(tool: string, allowed: unknown): readonly string[] {
  if (allowed === undefined) return [];
  if (!Array.isArray(allowed) || allowed.some((entry) => typeof entry !== 'string' || entry.trim() === '' || entry.includes('\\'))) {
    throw new MilpaError(`${tool} allowBuildFiles must be a list of path patterns such as 'Makefile' or '.vscode/tasks.json'.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return Object.freeze([...(allowed as string[])]);
}
