import { MilpaError, Type, type ToolDefinition } from '@milpa/core';
import { lstat } from 'node:fs/promises';
import { rejectUnknownArguments } from '../../lifecycle/argument-checks.js';
import { defineLifecycleTool } from '../../lifecycle/define-lifecycle-tool.js';
import { failure, success } from '../../lifecycle/tool-envelope.js';
import { ToolError } from '../../lifecycle/tool-error.js';
import { Workspace, type WorkspacePath } from '../../sandbox/workspace.js';
import { binaryContentReason } from '../file-read/binary-content-reason.js';
import { readUpTo } from '../file-read/read-up-to.js';
import { checkAllowedBuildFiles, refuseProtectedPath } from '../file-write/refuse-protected-path.js';
import { ReadLedger } from '../read-ledger/read-ledger.js';

/** The largest file `file_edit` changes (2 MiB), before and after the edit. */
export const FILE_EDIT_MAX_BYTES = 2 * 1024 * 1024;

/** The arguments of `file_edit`. */
export interface FileEditArgs {
  /** The file, relative to the workspace root. */
  readonly path: string;
  /** The exact text to replace; it must occur exactly once. */
  readonly old_str: string;
  /** The text to put in its place. */
  readonly new_str: string;
}

/** The data of a successful `file_edit` call. */
export interface FileEditData {
  /** The file, relative to the workspace root (symlinks resolved). */
  readonly path: string;
  /** The line, from 1, where the replaced text started. */
  readonly line: number;
  /** The size of the file after the edit, in bytes. */
  readonly bytes: number;
}

/** Options of {@link fileEditTool}. */
export interface FileEditToolOptions {
  /** The folder the tool may edit in. */
  readonly workspace: Workspace;
  /** The ledger `file_read` notes its reads in: only files read in the same run can be edited. */
  readonly ledger: ReadLedger;
  /** Scopes of which the caller needs one; default `['workspace:write']`. */
  readonly scopes?: readonly string[];
  /**
   * Build, hook or editor files the model may edit after all, as path patterns: a name
   * (`Makefile`, any folder), a path (`.vscode/tasks.json`), `*` inside a name, a leading `/` for the
   * workspace root only (`/package.json`). Secrets and executables stay refused. Default none.
   */
  readonly allowBuildFiles?: readonly string[];
}

interface EditPlan {
  readonly path: WorkspacePath;
  readonly runId: string;
  readonly oldText: string;
  readonly newText: string;
}

const ARGUMENTS = ['path', 'old_str', 'new_str'] as const;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const LINE_NUMBER_PREFIX = /^\s*\d+\t/m;

/** Where `needle` occurs in `text`, overlapping occurrences included, stopping after `stopAt`. */
function occurrencesOf(text: string, needle: string, stopAt: number): number[] {
  const found: number[] = [];
  for (let index = text.indexOf(needle); index !== -1 && found.length < stopAt; index = text.indexOf(needle, index + 1)) {
    found.push(index);
  }
  return found;
}

/**
 * The `file_edit` tool: replaces exactly one occurrence of `old_str` with `new_str` in a text file
 * of the workspace, atomically. Zero matches (`NO_MATCH`) or several (`AMBIGUOUS_MATCH`, with the
 * count) are refused. Only a file `file_read` has read earlier in the same run can be edited (the
 * two share `ledger`), so a call needs a run (`context.runId`, from `registry.startRun()`); after
 * an edit the file still counts as read. Files up to {@link FILE_EDIT_MAX_BYTES}; secrets, build,
 * hook and shell start-up files and VCS/CI/editor/`node_modules` folders (unless listed in
 * `allowBuildFiles`), files with more than one hard link and executable files are refused; the
 * file keeps its mode. Mutating; scopes `['workspace:write']` unless given.
 *
 * Codes: `RUN_REQUIRED`, `NOT_READ_IN_RUN`, `NO_MATCH`, `AMBIGUOUS_MATCH`, `NO_CHANGE`, `FILE_CHANGED`,
 * `FILE_TOO_LARGE`, `BINARY_FILE`, `SENSITIVE_PATH`, `BUILD_FILE`, `PATH_OUTSIDE_WORKSPACE`,
 * `INVALID_PATH`, `PATH_TOO_LONG`, `NOT_FOUND`, `NOT_A_FILE`, `HARD_LINK`, `EXECUTABLE_FILE`,
 * `PERMISSION_DENIED`, `INVALID_ARGUMENT`, `UNKNOWN_ARGUMENT`.
 *
 * @throws MilpaError `INVALID_ARGUMENT` when `workspace` is not a `Workspace`, `ledger` not a
 * `ReadLedger` or `allowBuildFiles` not a list of patterns.
 * @example
 * const ledger = new ReadLedger();
 * registry.register(fileReadTool({ workspace, ledger }));
 * registry.register(fileEditTool({ workspace, ledger }));
 * const context = ToolContext.cli().with({ runId: await registry.startRun() });
 * await registry.call('file_read', { path: 'src/a.ts' }, context);
 * await registry.call('file_edit', { path: 'src/a.ts', old_str: 'const a = 1;', new_str: 'const a = 2;' }, context);
 */
export function fileEditTool(options: FileEditToolOptions): ToolDefinition<FileEditArgs> {
  const { workspace, ledger, scopes = ['workspace:write'] } = options;
  if (!(workspace instanceof Workspace)) {
    throw new MilpaError('fileEditTool needs a workspace (Workspace.at(root)).', { code: 'INVALID_ARGUMENT' });
  }
  if (!(ledger instanceof ReadLedger)) {
    throw new MilpaError('fileEditTool needs the ReadLedger its file_read tool notes reads in (or use fileTools()).', {
      code: 'INVALID_ARGUMENT',
    });
  }
  const allowBuildFiles = checkAllowedBuildFiles('fileEditTool', options.allowBuildFiles);

  const input = Type.Object(
    {
      path: Type.String({
        minLength: 1,
        maxLength: 4096,
        description: "The file's path relative to the workspace root, e.g. 'src/index.ts'. Read it with file_read first.",
      }),
      old_str: Type.String({
        minLength: 1,
        description:
          'The exact text to replace, copied from the file text only (never the "N<tab>" line-number prefix of file_read), ' +
          'with enough surrounding lines to occur exactly once.',
      }),
      new_str: Type.String({ description: 'The text to put in place of old_str (empty to delete it).' }),
    },
    { additionalProperties: false },
  );

  return defineLifecycleTool<typeof input, EditPlan, FileEditData>({
    name: 'file_edit',
    description: [
      'Replace exactly one occurrence of old_str with new_str in a text file of the workspace.',
      'path is relative to the workspace root. Read the file with file_read in this run first; edits of files not read are refused.',
      'Copy old_str from the file text only: never include the line-number prefix ("12<tab>") that file_read adds with line_numbers.',
      'old_str must match exactly once, whitespace included: add surrounding lines when it occurs more than once.',
      `Files up to ${FILE_EDIT_MAX_BYTES} bytes. Secrets (.env, keys), build, hook and shell start-up files, lock files, ` +
        `executable files, .git, CI, editor and node_modules folders are refused.`,
    ].join(' '),
    input,
    scopes: [...scopes],
    mutating: true,
    routing: {
      intents: ['edit a file', 'change code', 'replace text in a file', 'fix a line'],
      domains: ['files', 'workspace', 'code'],
      tags: ['filesystem', 'edit', 'refactor'],
      examples: ['rename the function parse to parseConfig in src/config.ts', 'change the port from 3000 to 8080 in server.ts'],
    },
    plan: async (args, invocation) => {
      const unknown = rejectUnknownArguments(args, ARGUMENTS);
      if (unknown !== null) return { result: unknown };
      if (typeof args.old_str !== 'string' || args.old_str === '') {
        return { result: failure('INVALID_ARGUMENT', 'old_str must be the non-empty text to replace.') };
      }
      if (typeof args.new_str !== 'string') return { result: failure('INVALID_ARGUMENT', 'new_str must be a string.') };
      if (args.old_str === args.new_str)
        return { result: failure('NO_CHANGE', 'old_str and new_str are the same: there is nothing to change.') };
      const runId = invocation.context.runId;
      if (runId === null) {
        return {
          result: failure(
            'RUN_REQUIRED',
            'file_edit needs a run: edits are allowed only to files read with file_read earlier in the same run, ' +
              'and this call belongs to no run. ' +
              'The host starts one with registry.startRun() and passes its id as the context runId.',
          ),
        };
      }
      const given = refuseProtectedPath(String(args.path), 'edit', false, allowBuildFiles);
      if (given !== null) return { result: given };
      const path = await workspace.resolve(args.path, { mustExist: true });
      const resolved = refuseProtectedPath(path.relative, 'edit', false, allowBuildFiles);
      if (resolved !== null) return { result: resolved };
      if (!ledger.has(runId, path.relative)) {
        return {
          result: failure(
            'NOT_READ_IN_RUN',
            `'${path.relative}' has not been read in this run. Read it with file_read first, then copy old_str from what it returns.`,
          ),
        };
      }
      return { input: { path, runId, oldText: args.old_str, newText: args.new_str } };
    },
    perform: async ({ path, oldText, newText }) => {
      const file = await workspace.openForRead(path);
      const before = file.stats;
      let bytes: Buffer;
      try {
        const read = await readUpTo(file.handle, FILE_EDIT_MAX_BYTES);
        if (read.more) {
          throw new ToolError(
            'FILE_TOO_LARGE',
            `'${path.relative}' is larger than ${FILE_EDIT_MAX_BYTES} bytes (2 MiB); file_edit changes smaller files only.`,
          );
        }
        bytes = read.bytes;
      } finally {
        await file.handle.close();
      }
      const binary = binaryContentReason(bytes, true);
      let text: string;
      try {
        if (binary !== null) throw new Error(binary);
        text = strictUtf8.decode(bytes);
      } catch (error) {
        throw new ToolError(
          'BINARY_FILE',
          `'${path.relative}' is not a text file (${(error as Error).message}); file_edit changes UTF-8 text only.`,
        );
      }
      const matches = occurrencesOf(text, oldText, 50);
      if (matches.length === 0) {
        const hint = LINE_NUMBER_PREFIX.test(oldText)
          ? ' old_str seems to start with a line-number prefix ("N<tab>") from file_read: copy the file text only.'
          : ' Check whitespace and indentation, or read the file again: it may have changed.';
        throw new ToolError('NO_MATCH', `old_str was not found in '${path.relative}' (0 matches).${hint}`, { details: { matches: 0 } });
      }
      if (matches.length > 1) {
        const count = matches.length >= 50 ? 'at least 50' : String(matches.length);
        throw new ToolError(
          'AMBIGUOUS_MATCH',
          `old_str occurs ${count} times in '${path.relative}'; it must occur exactly once. Include more surrounding lines to pick one.`,
          { details: { matches: matches.length } },
        );
      }
      const at = matches[0] as number;
      const edited = text.slice(0, at) + newText + text.slice(at + oldText.length);
      const size = Buffer.byteLength(edited, 'utf8');
      if (size > FILE_EDIT_MAX_BYTES) {
        throw new ToolError(
          'FILE_TOO_LARGE',
          `The edit would make '${path.relative}' ${size} bytes, over the ${FILE_EDIT_MAX_BYTES}-byte limit of file_edit.`,
        );
      }
      // A change made by someone else since the read above would be lost by the write: refuse it.
      const now = await lstat(path.absolute).catch(() => null);
      if (now === null || now.ino !== before.ino || now.size !== before.size || now.mtimeMs !== before.mtimeMs) {
        throw new ToolError('FILE_CHANGED', `'${path.relative}' changed while it was being edited; read it again and retry the edit.`);
      }
      await workspace.writeAtomic(path, edited);
      const line = text.slice(0, at).split('\n').length;
      return { path: path.relative, line, bytes: size };
    },
    complete: (edited, { runId }) => {
      // Still read: the model knows what it wrote and may edit the file again.
      ledger.record(runId, edited.path);
      return success(edited, { path: edited.path, line: edited.line, bytes: edited.bytes });
    },
  });
}
