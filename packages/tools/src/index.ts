// @milpa/tools: sandboxed built-in tools for Milpa (files, code search, project info, shell, HTTP,
// database, zip) and the plan → perform → verify → complete lifecycle they are written with.

export {
  defineLifecycleTool,
  type LifecycleToolOptions,
  type LifecyclePlan,
  type LifecycleRecovery,
} from './lifecycle/define-lifecycle-tool.js';
export { ToolError, type ToolErrorOptions } from './lifecycle/tool-error.js';
export { success, failure } from './lifecycle/tool-envelope.js';
export { rejectUnknownArguments, validatePaging, type PagingBounds } from './lifecycle/argument-checks.js';

export { Workspace, PATH_OUTSIDE_WORKSPACE, type WorkspacePath, type WorkspaceFile } from './sandbox/workspace.js';
export {
  SENSITIVE_DIRECTORIES,
  SENSITIVE_FILE_NAMES,
  SENSITIVE_EXTENSIONS,
  SENSITIVE_PATH_PATTERNS,
  EXECUTABLE_EXTENSIONS,
  BUILD_FILE_NAMES,
  BUILD_DIRECTORIES,
  BUILD_PATH_PATTERNS,
  SKIPPED_DIRECTORIES,
  sensitivePathReason,
  buildPathReason,
  executablePathReason,
  isSkippedDirectory,
} from './sandbox/sensitive-paths.js';

export {
  builtinTools,
  BUILTIN_TOOL_NAMES,
  DEFAULT_BUILTIN_TOOLS,
  type BuiltinToolName,
  type BuiltinToolsOptions,
  type BuiltinToolSet,
} from './builtin-tools.js';

export { ReadLedger, type ReadLedgerOptions } from './tools/read-ledger/read-ledger.js';
export { fileTools, type FileToolsOptions, type FileToolSet } from './tools/file-tools/file-tools.js';
export {
  fileReadTool,
  FILE_READ_MAX_BYTES,
  FILE_READ_MAX_LIMIT,
  FILE_READ_MAX_OFFSET,
  type FileReadArgs,
  type FileReadData,
  type FileReadToolOptions,
} from './tools/file-read/file-read-tool.js';
export {
  fileWriteTool,
  FILE_WRITE_MAX_BYTES,
  type FileWriteArgs,
  type FileWriteData,
  type FileWriteToolOptions,
} from './tools/file-write/file-write-tool.js';
export {
  fileEditTool,
  FILE_EDIT_MAX_BYTES,
  type FileEditArgs,
  type FileEditData,
  type FileEditToolOptions,
} from './tools/file-edit/file-edit-tool.js';

export {
  codeSearchTool,
  type CodeSearchToolOptions,
  type CodeSearchArgs,
  type CodeSearchMatch,
  type CodeSearchData,
} from './tools/code-search/code-search-tool.js';
export {
  projectInfoTool,
  type ProjectInfoToolOptions,
  type ProjectInfoArgs,
  type ProjectInfoData,
} from './tools/project-info/project-info-tool.js';
export { PROJECT_MARKERS, type ProjectMarker, type ProjectMarkerKind } from './tools/project-info/project-markers.js';

export {
  shellExecTool,
  MAX_SHELL_OUTPUT_BYTES,
  DEFAULT_SHELL_ENV,
  type ShellExecToolOptions,
  type ShellExecResult,
} from './tools/shell-exec/shell-exec-tool.js';
export {
  DEFAULT_SHELL_ALLOWLIST,
  SHELL_READ_ONLY_COMMANDS,
  SHELL_BLOCKED_COMMANDS,
  isShellCommandBlocked,
} from './tools/shell-exec/shell-command-lists.js';
export { isShellCommandMutating } from './tools/shell-exec/is-shell-command-mutating.js';
export {
  tokenizeShellCommand,
  SHELL_METACHARACTERS,
  MAX_SHELL_COMMAND_LENGTH,
  MAX_SHELL_ARGUMENTS,
} from './tools/shell-exec/tokenize-shell-command.js';

export {
  httpRequestTool,
  type HttpRequestToolOptions,
  type HttpRequestArgs,
  type HttpResponseData,
} from './tools/http-request/http-request-tool.js';
export type { HostLookup } from './tools/http-request/resolve-request-target.js';
export { FORBIDDEN_ADDRESS_RANGES, forbiddenAddressReason, type ForbiddenAddressRange } from './tools/http-request/forbidden-addresses.js';
export { FORBIDDEN_HOSTNAMES, forbiddenHostnameReason } from './tools/http-request/forbidden-hostnames.js';

export {
  dbQueryTool,
  DB_QUERY_MAX_ROWS,
  DB_QUERY_MAX_BYTES,
  DB_QUERY_TIMEOUT_MS,
  DB_QUERY_MAX_RESULT_BYTES,
  type DbQueryToolOptions,
  type DbQueryData,
} from './tools/db-query/db-query-tool.js';
export {
  betterSqlite3Database,
  SQLITE_QUERY_MEMORY_MB,
  type BetterSqlite3Like,
  type BetterSqlite3DatabaseOptions,
  type ProcessSqlDatabase,
} from './tools/db-query/better-sqlite3-database.js';
export { validateSqlAllowlist, type SqlAllowlist } from './tools/db-query/sql-allowlist.js';
export { SQL_VALUE_BUILDER_FUNCTIONS, SQL_MAX_FIELD_WIDTH } from './tools/db-query/sql-unbounded-checks.js';
export { SQL_JSON_TABLE_FUNCTIONS } from './tools/db-query/sql-hidden-secret-checks.js';
export type { SqlDatabase, SqlRow, SqlQueryOptions } from './tools/db-query/sql-database.js';
export { SQL_DIALECTS, type SqlDialect } from './tools/db-query/sql-dialect.js';
export {
  checkSqlQuery,
  SQL_MAX_LENGTH,
  type SqlCheck,
  type SqlCheckOptions,
  type SqlRefusalCode,
} from './tools/db-query/check-sql-query.js';

export {
  zipPackageTool,
  ZIP_PACKAGE_MAX_FILES,
  ZIP_PACKAGE_MAX_BYTES,
  type ZipPackageToolOptions,
  type ZipPackageData,
} from './tools/zip-package/zip-package-tool.js';
