import type { ToolResult } from '@milpa/core';
import { failure } from '../../lifecycle/tool-envelope.js';
import { buildPathReason, executablePathReason, sensitivePathReason } from '../../sandbox/sensitive-paths.js';

/**
 * Why a path may not be written or edited by the model (a secret, a build or VCS/CI file, or, with
 * `executables`, a script or program), as a failure result; null when it may be.
 */
export function refuseProtectedPath(relativePath: string, action: 'write' | 'edit', executables: boolean): ToolResult<null> | null {
  const sensitive = sensitivePathReason(relativePath);
  if (sensitive !== null) return failure('SENSITIVE_PATH', `Refused to ${action} '${relativePath}': ${sensitive}.`);
  const build = buildPathReason(relativePath);
  if (build !== null) {
    return failure('BUILD_FILE', `Refused to ${action} '${relativePath}': ${build}, which the file tools leave to people.`);
  }
  const executable = executables ? executablePathReason(relativePath) : null;
  if (executable !== null)
    return failure('EXECUTABLE_FILE', `Refused to ${action} '${relativePath}': ${executable}, which file_write never creates.`);
  return null;
}
