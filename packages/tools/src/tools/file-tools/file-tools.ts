import type { ToolDefinition } from '@milpa/core';
import type { Workspace } from '../../sandbox/workspace.js';
import { fileEditTool, type FileEditArgs } from '../file-edit/file-edit-tool.js';
import { fileReadTool, type FileReadArgs } from '../file-read/file-read-tool.js';
import { fileWriteTool, type FileWriteArgs } from '../file-write/file-write-tool.js';
import { ReadLedger, type ReadLedgerOptions } from '../read-ledger/read-ledger.js';

/** Options of {@link fileTools}. */
export interface FileToolsOptions {
  /** The folder the three tools work in. */
  readonly workspace: Workspace;
  /** The ledger `file_read` and `file_edit` share; default a new one with `ledgerOptions`. */
  readonly ledger?: ReadLedger;
  /** Bounds of the ledger created when none is given. */
  readonly ledgerOptions?: ReadLedgerOptions;
  /** Scopes of `file_read`; default `['workspace:read']`. */
  readonly readScopes?: readonly string[];
  /** Scopes of `file_write` and `file_edit`; default `['workspace:write']`. */
  readonly writeScopes?: readonly string[];
  /** Build, hook or editor files `file_write` and `file_edit` may change after all (see `FileWriteToolOptions`). */
  readonly allowBuildFiles?: readonly string[];
}

/** The three file tools built by {@link fileTools}, sharing one ledger. */
export interface FileToolSet {
  /** `file_read`, which notes its reads in `ledger`. */
  readonly fileRead: ToolDefinition<FileReadArgs>;
  /** `file_write`. */
  readonly fileWrite: ToolDefinition<FileWriteArgs>;
  /** `file_edit`, which edits only files `file_read` read in the same run. */
  readonly fileEdit: ToolDefinition<FileEditArgs>;
  /** The ledger the read and edit tools share. */
  readonly ledger: ReadLedger;
  /** The three tools, for `new ToolRegistry({ tools })` or a loop of `register`. */
  readonly all: readonly [ToolDefinition<FileReadArgs>, ToolDefinition<FileWriteArgs>, ToolDefinition<FileEditArgs>];
}

/**
 * `file_read`, `file_write` and `file_edit` over one workspace, with the read ledger `file_read`
 * and `file_edit` share (so an edit is allowed only for a file read earlier in the same run).
 *
 * @throws MilpaError `INVALID_ARGUMENT` when `workspace` is not a `Workspace` or a ledger bound is invalid.
 * @example
 * const files = fileTools({ workspace: Workspace.at('/srv/project') });
 * const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), tools: files.all });
 */
export function fileTools(options: FileToolsOptions): FileToolSet {
  const { workspace, ledgerOptions, readScopes, writeScopes, allowBuildFiles } = options;
  const allowed = allowBuildFiles === undefined ? {} : { allowBuildFiles };
  const ledger = options.ledger ?? new ReadLedger(ledgerOptions);
  const fileRead = fileReadTool({ workspace, ledger, ...(readScopes === undefined ? {} : { scopes: readScopes }) });
  const fileWrite = fileWriteTool({ workspace, ...allowed, ...(writeScopes === undefined ? {} : { scopes: writeScopes }) });
  const fileEdit = fileEditTool({ workspace, ledger, ...allowed, ...(writeScopes === undefined ? {} : { scopes: writeScopes }) });
  return Object.freeze({ fileRead, fileWrite, fileEdit, ledger, all: Object.freeze([fileRead, fileWrite, fileEdit] as const) });
}
