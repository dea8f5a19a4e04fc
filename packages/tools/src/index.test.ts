import { describe, expect, it } from 'vitest';
import * as tools from './index.js';

describe('@milpa/tools', () => {
  describe('exports', () => {
    it('exposes exactly the public runtime names', () => {
      expect(Object.keys(tools).sort()).toEqual(NAMES);
    });

    it('lists the built-in tool names in the order builtinTools returns them', () => {
      expect(tools.BUILTIN_TOOL_NAMES).toEqual([
        'code_search',
        'file_read',
        'project_info',
        'file_write',
        'file_edit',
        'shell_exec',
        'http_request',
        'db_query',
        'zip_package',
      ]);
    });
  });
});

const NAMES: string[] = [
  'BUILD_DIRECTORIES',
  'BUILD_FILE_NAMES',
  'BUILD_PATH_PATTERNS',
  'BUILTIN_TOOL_NAMES',
  'DB_QUERY_MAX_BYTES',
  'DB_QUERY_MAX_ROWS',
  'DEFAULT_BUILTIN_TOOLS',
  'DEFAULT_SHELL_ALLOWLIST',
  'DEFAULT_SHELL_ENV',
  'EXECUTABLE_EXTENSIONS',
  'FILE_EDIT_MAX_BYTES',
  'FILE_READ_MAX_BYTES',
  'FILE_READ_MAX_LIMIT',
  'FILE_READ_MAX_OFFSET',
  'FILE_WRITE_MAX_BYTES',
  'FORBIDDEN_ADDRESS_RANGES',
  'FORBIDDEN_HOSTNAMES',
  'MAX_SHELL_ARGUMENTS',
  'MAX_SHELL_COMMAND_LENGTH',
  'MAX_SHELL_OUTPUT_BYTES',
  'PATH_OUTSIDE_WORKSPACE',
  'PROJECT_MARKERS',
  'ReadLedger',
  'SENSITIVE_DIRECTORIES',
  'SENSITIVE_EXTENSIONS',
  'SENSITIVE_FILE_NAMES',
  'SENSITIVE_PATH_PATTERNS',
  'SHELL_BLOCKED_COMMANDS',
  'SHELL_METACHARACTERS',
  'SHELL_READ_ONLY_COMMANDS',
  'SKIPPED_DIRECTORIES',
  'SQL_DIALECTS',
  'SQL_MAX_LENGTH',
  'ToolError',
  'Workspace',
  'ZIP_PACKAGE_MAX_BYTES',
  'ZIP_PACKAGE_MAX_FILES',
  'betterSqlite3Database',
  'buildPathReason',
  'builtinTools',
  'checkSqlQuery',
  'codeSearchTool',
  'dbQueryTool',
  'defineLifecycleTool',
  'executablePathReason',
  'failure',
  'fileEditTool',
  'fileReadTool',
  'fileTools',
  'fileWriteTool',
  'forbiddenAddressReason',
  'forbiddenHostnameReason',
  'httpRequestTool',
  'isShellCommandBlocked',
  'isShellCommandMutating',
  'isSkippedDirectory',
  'projectInfoTool',
  'rejectUnknownArguments',
  'sensitivePathReason',
  'shellExecTool',
  'success',
  'tokenizeShellCommand',
  'validatePaging',
  'zipPackageTool',
];
