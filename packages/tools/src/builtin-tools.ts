import { MilpaError, type AnyToolDefinition } from '@milpa/core';
import { Workspace } from './sandbox/workspace.js';
import { codeSearchTool, type CodeSearchToolOptions } from './tools/code-search/code-search-tool.js';
import { dbQueryTool, type DbQueryToolOptions } from './tools/db-query/db-query-tool.js';
import { fileEditTool } from './tools/file-edit/file-edit-tool.js';
import { fileReadTool } from './tools/file-read/file-read-tool.js';
import { fileWriteTool } from './tools/file-write/file-write-tool.js';
import { httpRequestTool, type HttpRequestToolOptions } from './tools/http-request/http-request-tool.js';
import { projectInfoTool, type ProjectInfoToolOptions } from './tools/project-info/project-info-tool.js';
import { ReadLedger, type ReadLedgerOptions } from './tools/read-ledger/read-ledger.js';
import { shellExecTool, type ShellExecToolOptions } from './tools/shell-exec/shell-exec-tool.js';
import { zipPackageTool, type ZipPackageToolOptions } from './tools/zip-package/zip-package-tool.js';

/** The names of the built-in tools, in the order {@link builtinTools} returns them. */
export const BUILTIN_TOOL_NAMES = Object.freeze([
  'code_search',
  'file_read',
  'project_info',
  'file_write',
  'file_edit',
  'shell_exec',
  'http_request',
  'db_query',
  'zip_package',
] as const);

/** The name of one built-in tool. */
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** The read-only tools {@link builtinTools} returns when `tools` is not given. */
export const DEFAULT_BUILTIN_TOOLS: readonly BuiltinToolName[] = Object.freeze(['code_search', 'file_read', 'project_info'] as const);

/** Options of {@link builtinTools}. Settings of a tool not named in `tools` are refused, not ignored. */
export interface BuiltinToolsOptions {
  /** The folder the file, search, project, shell and zip tools work in; nothing outside it is read or written. */
  readonly workspaceRoot: string;
  /**
   * The tools to build; default {@link DEFAULT_BUILTIN_TOOLS} (`code_search`, `file_read`,
   * `project_info`, all read-only). Name the others to opt in: `db_query` also needs `database`.
   */
  readonly tools?: readonly BuiltinToolName[];
  /** Settings of `file_read`, `file_write` and `file_edit`. */
  readonly files?: {
    /** The ledger `file_read` notes reads in and `file_edit` checks; default a new one with `ledgerOptions`. */
    readonly ledger?: ReadLedger;
    /** Bounds of the ledger created when none is given. */
    readonly ledgerOptions?: ReadLedgerOptions;
    /** Scopes of `file_read`; default `['workspace:read']`. */
    readonly readScopes?: readonly string[];
    /** Scopes of `file_write` and `file_edit`; default `['workspace:write']`. */
    readonly writeScopes?: readonly string[];
    /**
     * Build, hook or editor files `file_write` and `file_edit` may change after all, as path patterns (`Makefile`, `.vscode/tasks.json`).
     */
    readonly allowBuildFiles?: readonly string[];
    /** Let `file_write` create and replace PHP files (`.php`, `.phtml`, `.phar`); default false. */
    readonly allowPhpFiles?: boolean;
  };
  /** Settings of `code_search`. */
  readonly codeSearch?: Omit<CodeSearchToolOptions, 'workspace'>;
  /** Settings of `project_info`. */
  readonly projectInfo?: Omit<ProjectInfoToolOptions, 'workspace'>;
  /** Settings of `shell_exec` (its allowlist above all). */
  readonly shell?: Omit<ShellExecToolOptions, 'workspace'>;
  /** Settings of `http_request` (allowed hosts, allowed private addresses, limits). */
  readonly http?: HttpRequestToolOptions;
  /** The database and dialect of `db_query`; required when `tools` names it. */
  readonly database?: DbQueryToolOptions;
  /** Settings of `zip_package`. */
  readonly zip?: Omit<ZipPackageToolOptions, 'workspace'>;
}

/** The tools built by {@link builtinTools}. */
export interface BuiltinToolSet {
  /** The built tools, in the order of {@link BUILTIN_TOOL_NAMES}: pass them to `new ToolRegistry({ tools })`. */
  readonly tools: readonly AnyToolDefinition[];
  /** The workspace every file tool works in. */
  readonly workspace: Workspace;
  /** The ledger `file_read` and `file_edit` share. */
  readonly ledger: ReadLedger;
}

const SETTINGS_OF: ReadonlyArray<readonly [keyof BuiltinToolsOptions, readonly BuiltinToolName[]]> = [
  ['files', ['file_read', 'file_write', 'file_edit']],
  ['codeSearch', ['code_search']],
  ['projectInfo', ['project_info']],
  ['shell', ['shell_exec']],
  ['http', ['http_request']],
  ['database', ['db_query']],
  ['zip', ['zip_package']],
];

function invalid(message: string): MilpaError {
  return new MilpaError(`builtinTools: ${message}`, { code: 'INVALID_ARGUMENT' });
}

function checkSelection(tools: unknown): ReadonlySet<BuiltinToolName> {
  if (!Array.isArray(tools) || tools.length === 0)
    throw invalid(`tools must be a non-empty list of tool names (${BUILTIN_TOOL_NAMES.join(', ')}).`);
  const known: ReadonlySet<string> = new Set(BUILTIN_TOOL_NAMES);
  const unknown = tools.filter((name) => typeof name !== 'string' || !known.has(name));
  if (unknown.length > 0) {
    throw invalid(
      `${unknown.map((name) => JSON.stringify(name)).join(', ')} ` +
        `${unknown.length === 1 ? 'is not a built-in tool' : 'are not built-in tools'}; ` +
        `the built-in tools are ${BUILTIN_TOOL_NAMES.join(', ')}.`,
    );
  }
  const selected = new Set(tools as BuiltinToolName[]);
  if (selected.size !== tools.length) throw invalid('tools names a tool more than once.');
  return selected;
}

/**
 * Builds the sandboxed built-in tools over one workspace folder. By default only the three
 * read-only tools (`code_search`, `file_read`, `project_info`); a host opts into the others by
 * naming them in `tools`, with their settings. Each tool declares its scopes, mutability
 * (`shell_exec` per call: read-only programs are not mutating) and routing hints, so the
 * registry's approval, rate cost and router treat it correctly.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for an unknown or repeated tool name, settings of a tool not
 *   selected, `db_query` without `database`, or any tool's own invalid setting; the workspace root
 *   must be an existing folder other than the filesystem root.
 * @example
 * const { tools } = builtinTools({ workspaceRoot: '/srv/project' });
 * const registry = new ToolRegistry({ tools });
 * @example
 * builtinTools({ workspaceRoot: '/srv/project', tools: ['file_read', 'file_edit', 'shell_exec'], shell: { allowlist: ['ls', 'wc'] } });
 */
export function builtinTools(options: BuiltinToolsOptions): BuiltinToolSet {
  if (typeof options !== 'object' || options === null) throw invalid('options must be an object with workspaceRoot.');
  const selected = checkSelection(options.tools ?? DEFAULT_BUILTIN_TOOLS);
  for (const [setting, owners] of SETTINGS_OF) {
    if (options[setting] !== undefined && !owners.some((name) => selected.has(name))) {
      throw invalid(
        `${setting} is set but ${owners.join(' / ')} ${owners.length === 1 ? 'is' : 'are'} not in tools: ` +
          `add ${owners.length === 1 ? 'it' : 'them'} to tools or drop the setting.`,
      );
    }
  }
  if (selected.has('db_query') && options.database === undefined)
    throw invalid('db_query needs database: { database, dialect } (a read-only connection).');

  const workspace = Workspace.at(options.workspaceRoot);
  const files = options.files ?? {};
  const ledger = files.ledger ?? new ReadLedger(files.ledgerOptions);
  const readScopes = files.readScopes === undefined ? {} : { scopes: files.readScopes };
  const writeScopes = {
    ...(files.writeScopes === undefined ? {} : { scopes: files.writeScopes }),
    ...(files.allowBuildFiles === undefined ? {} : { allowBuildFiles: files.allowBuildFiles }),
  };
  const build: Record<BuiltinToolName, () => AnyToolDefinition> = {
    code_search: () => codeSearchTool({ ...options.codeSearch, workspace }),
    file_read: () => fileReadTool({ workspace, ledger, ...readScopes }),
    project_info: () => projectInfoTool({ ...options.projectInfo, workspace }),
    file_write: () =>
      fileWriteTool({ workspace, ...writeScopes, ...(files.allowPhpFiles === undefined ? {} : { allowPhpFiles: files.allowPhpFiles }) }),
    file_edit: () => fileEditTool({ workspace, ledger, ...writeScopes }),
    shell_exec: () => shellExecTool({ ...options.shell, workspace }),
    http_request: () => httpRequestTool(options.http),
    db_query: () => dbQueryTool(options.database as DbQueryToolOptions),
    zip_package: () => zipPackageTool({ ...options.zip, workspace }),
  };
  const tools = BUILTIN_TOOL_NAMES.filter((name) => selected.has(name)).map((name) => build[name]());
  return Object.freeze({ tools: Object.freeze(tools), workspace, ledger });
}
