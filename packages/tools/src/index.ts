// @milpa/tools: sandboxed built-in tools for Milpa (files, code search, project info, shell, HTTP,
// database, zip) and the plan → perform → verify → complete lifecycle they are written with.

export { defineLifecycleTool, type LifecycleToolOptions, type LifecyclePlan, type LifecycleRecovery } from './lifecycle/define-lifecycle-tool.js';
export { ToolError, type ToolErrorOptions } from './lifecycle/tool-error.js';
export { success, failure } from './lifecycle/tool-envelope.js';
export { rejectUnknownArguments, validatePaging, type PagingBounds } from './lifecycle/argument-checks.js';

export { Workspace, PATH_OUTSIDE_WORKSPACE, type WorkspacePath, type WorkspaceFile } from './sandbox/workspace.js';
export {
  SENSITIVE_DIRECTORIES,
  SENSITIVE_FILE_NAMES,
  SENSITIVE_EXTENSIONS,
  EXECUTABLE_EXTENSIONS,
  BUILD_FILE_NAMES,
  BUILD_DIRECTORIES,
  SKIPPED_DIRECTORIES,
  sensitivePathReason,
  buildPathReason,
  executablePathReason,
  isSkippedDirectory,
} from './sandbox/sensitive-paths.js';
