import { MilpaError, Type, type ToolDefinition, type ToolResult } from '@milpa/core';
import { lstat, mkdir, realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { rejectUnknownArguments } from '../../lifecycle/argument-checks.js';
import { defineLifecycleTool } from '../../lifecycle/define-lifecycle-tool.js';
import { failure, success } from '../../lifecycle/tool-envelope.js';
import { ToolError } from '../../lifecycle/tool-error.js';
import { fileSystemRefusal } from '../../sandbox/file-system-refusal.js';
import { PATH_OUTSIDE_WORKSPACE, Workspace, type WorkspacePath } from '../../sandbox/workspace.js';
import { checkAllowedBuildFiles, refusePhpPath, refuseProtectedPath } from './refuse-protected-path.js';

/** The most bytes of UTF-8 `file_write` writes in one call (10 MiB). */
export const FILE_WRITE_MAX_BYTES = 10 * 1024 * 1024;

/** The arguments of `file_write`. */
export interface FileWriteArgs {
  /** The file, relative to the workspace root. */
  readonly path: string;
  /** The whole new text of the file. */
  readonly content: string;
  /** Create missing parent folders (default false: a missing folder is refused). */
  readonly create_folders?: boolean;
}

/** The data of a successful `file_write` call. */
export interface FileWriteData {
  /** The file, relative to the workspace root (symlinks resolved). */
  readonly path: string;
  /** How many bytes were written. */
  readonly bytes: number;
  /** True when the file did not exist before. */
  readonly created: boolean;
}

/** Options of {@link fileWriteTool}. */
export interface FileWriteToolOptions {
  /** The folder the tool may write in. */
  readonly workspace: Workspace;
  /** Scopes of which the caller needs one; default `['workspace:write']`. */
  readonly scopes?: readonly string[];
  /**
   * Build, hook or editor files the model may write after all, as path patterns: a name
   * (`Makefile`, any folder), a path (`.vscode/tasks.json`), `*` inside a name, a leading `/` for the
   * workspace root only (`/package.json`). Secrets and executables stay refused. Default none.
   */
  readonly allowBuildFiles?: readonly string[];
  /**
   * Let the model create and replace PHP files (`.php`, `.phtml`, `.phar`), which a web server runs
   * as programs. Default false: they are refused with `EXECUTABLE_FILE`.
   */
  readonly allowPhpFiles?: boolean;
}

interface WritePlan {
  readonly path: WorkspacePath;
  readonly content: string;
  readonly bytes: number;
  readonly createFolders: boolean;
}

const ARGUMENTS = ['path', 'content', 'create_folders'] as const;

/**
 * The `file_write` tool: creates or replaces a text file in the workspace with `content`,
 * atomically (a reader sees the old file or the new one, never half of it). At most
 * {@link FILE_WRITE_MAX_BYTES} bytes of UTF-8. Refused: secrets (`.env`, keys, `.ssh/`); build, hook
 * and shell start-up files that run code (`package.json`, lock files, `.pnpmfile.cjs`, `Makefile`,
 * `Dockerfile`, `.bashrc`, …) and the folders `.git/`, `.github/`, `.husky/`, `.vscode/`,
 * `node_modules/`, … (unless listed in `allowBuildFiles`); files with more than one hard link;
 * executables or scripts (`.sh`, `.exe`, …), PHP files (`.php`, `.phtml`, `.phar`, unless `allowPhpFiles`)
 * and any existing file with an executable bit. A new file
 * gets mode 0644 whatever the umask; a replaced one keeps its mode. A missing parent folder is refused
 * (`FOLDER_NOT_FOUND`) unless the call sets `create_folders: true`, which creates it inside the
 * workspace one level at a time. Mutating; scopes `['workspace:write']` unless given.
 *
 * Codes: `PATH_OUTSIDE_WORKSPACE`, `INVALID_PATH`, `PATH_TOO_LONG`, `SENSITIVE_PATH`, `BUILD_FILE`,
 * `EXECUTABLE_FILE`, `HARD_LINK`, `FILE_CHANGED`, `FILE_TOO_LARGE`, `FOLDER_NOT_FOUND`, `NOT_A_FILE`,
 * `NOT_A_FOLDER`, `PERMISSION_DENIED`, `UNKNOWN_ARGUMENT`.
 *
 * @throws MilpaError `INVALID_ARGUMENT` when `workspace` is not a `Workspace`, `allowBuildFiles` not a list of patterns or
 *   `allowPhpFiles` not a boolean.
 * @example
 * registry.register(fileWriteTool({ workspace: Workspace.at('/srv/project') }));
 * await registry.call('file_write', { path: 'notes/todo.md', content: '- ship it\n', create_folders: true }, context);
 */
export function fileWriteTool(options: FileWriteToolOptions): ToolDefinition<FileWriteArgs> {
  const { workspace, scopes = ['workspace:write'] } = options;
  if (!(workspace instanceof Workspace)) {
    throw new MilpaError('fileWriteTool needs a workspace (Workspace.at(root)).', { code: 'INVALID_ARGUMENT' });
  }
  const allowBuildFiles = checkAllowedBuildFiles('fileWriteTool', options.allowBuildFiles);
  const { allowPhpFiles = false } = options;
  if (typeof allowPhpFiles !== 'boolean') {
    throw new MilpaError('fileWriteTool allowPhpFiles must be true or false.', { code: 'INVALID_ARGUMENT' });
  }
  const refuse = (relativePath: string): ToolResult<null> | null =>
    refuseProtectedPath(relativePath, 'write', true, allowBuildFiles) ?? (allowPhpFiles ? null : refusePhpPath(relativePath));

  const input = Type.Object(
    {
      path: Type.String({
        minLength: 1,
        maxLength: 4096,
        description: "The file's path relative to the workspace root, with '/' between folders, e.g. 'docs/notes.md'.",
      }),
      content: Type.String({ description: 'The whole new text of the file (it replaces any existing content).' }),
      create_folders: Type.Optional(
        Type.Boolean({ description: 'Create missing parent folders; default false (a missing folder is refused).' }),
      ),
    },
    { additionalProperties: false },
  );

  return defineLifecycleTool<typeof input, WritePlan, FileWriteData>({
    name: 'file_write',
    description: [
      'Create a text file in the workspace, or replace the whole content of one.',
      "path is relative to the workspace root (no absolute paths, no '..' out of it).",
      'The write is atomic. To change part of an existing file, prefer file_edit.',
      `At most ${FILE_WRITE_MAX_BYTES} bytes. A missing parent folder is refused unless create_folders is true.`,
      'Refused: secrets (.env, keys, .ssh), build, hook and shell start-up files (package.json, lock files, Makefile, .bashrc), ' +
        '.git, CI, editor and node_modules folders, and scripts or executables (.sh, .exe, executable files' +
        `${allowPhpFiles ? '' : ', PHP files'}).`,
    ].join(' '),
    input,
    scopes: [...scopes],
    mutating: true,
    routing: {
      intents: ['write a file', 'create a file', 'save text to a file', 'overwrite a file'],
      domains: ['files', 'workspace', 'code'],
      tags: ['filesystem', 'write', 'text'],
      examples: ['create docs/notes.md with a summary', 'save this config as config/app.yaml'],
    },
    plan: async (args) => {
      const unknown = rejectUnknownArguments(args, ARGUMENTS);
      if (unknown !== null) return { result: unknown };
      if (typeof args.content !== 'string') return { result: failure('INVALID_ARGUMENT', 'content must be a string.') };
      const bytes = Buffer.byteLength(args.content, 'utf8');
      if (bytes > FILE_WRITE_MAX_BYTES) {
        return {
          result: failure(
            'FILE_TOO_LARGE',
            `content is ${bytes} bytes; file_write writes at most ${FILE_WRITE_MAX_BYTES} bytes (10 MiB).`,
            { bytes, max_bytes: FILE_WRITE_MAX_BYTES },
          ),
        };
      }
      const given = refuse(String(args.path));
      if (given !== null) return { result: given };
      const path = await workspace.resolve(args.path);
      // Checked again after symlinks: 'notes.txt' may lead to '.env' or 'package.json'.
      const resolved = refuse(path.relative);
      if (resolved !== null) return { result: resolved };
      if (path.relative === '.') return { result: failure('NOT_A_FILE', 'path names the workspace root, not a file.') };
      return { input: { path, content: args.content, bytes, createFolders: args.create_folders === true } };
    },
    perform: async ({ path, content, bytes, createFolders }) => {
      await ensureFolder(workspace, path, createFolders).catch((error: unknown) => {
        throw fileSystemRefusal(error, path.relative);
      });
      await workspace.writeAtomic(path, content);
      return { path: path.relative, bytes, created: !path.exists };
    },
    complete: (written) =>
      success(
        written,
        { path: written.path, bytes: written.bytes },
        written.created ? [] : [`'${written.path}' existed and was replaced.`],
      ),
  });
}

/** Makes sure the folder of `path` exists inside the workspace, creating it level by level when allowed. */
async function ensureFolder(workspace: Workspace, path: WorkspacePath, create: boolean): Promise<void> {
  const folder = dirname(path.absolute);
  // Followed through symlinks: whether a symlinked folder stays inside is checked by writeAtomic.
  const existing = await stat(folder).catch(() => null);
  if (existing !== null) {
    if (!existing.isDirectory()) throw new ToolError('NOT_A_FOLDER', `'${workspace.relativeOf(folder)}' is not a folder.`);
    return;
  }
  const relativeFolder = workspace.relativeOf(folder);
  if (!create) {
    throw new ToolError(
      'FOLDER_NOT_FOUND',
      `The folder '${relativeFolder}' does not exist. Call file_write again with create_folders: true to create it.`,
    );
  }
  let current = workspace.root;
  for (const segment of relativeFolder.split('/')) {
    current = join(current, segment);
    try {
      await mkdir(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // Each level is checked as it is made: a level swapped for a symlink out of the root stops here.
    const stats = await lstat(current);
    if (stats.isSymbolicLink() || !workspace.contains(await realpath(current))) {
      throw new ToolError(
        PATH_OUTSIDE_WORKSPACE,
        `'${path.relative}' is outside the workspace: only paths inside the workspace root can be used.`,
      );
    }
    if (!stats.isDirectory()) throw new ToolError('NOT_A_FOLDER', `'${workspace.relativeOf(current)}' is not a folder.`);
  }
}
