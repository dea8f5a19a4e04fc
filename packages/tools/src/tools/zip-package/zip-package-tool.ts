import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MilpaError, Type, type ToolDefinition } from '@milpa/core';
import { ZipFile } from 'yazl';
import { rejectUnknownArguments } from '../../lifecycle/argument-checks.js';
import { defineLifecycleTool } from '../../lifecycle/define-lifecycle-tool.js';
import { failure, success } from '../../lifecycle/tool-envelope.js';
import { ToolError } from '../../lifecycle/tool-error.js';
import { fileSystemRefusal } from '../../sandbox/file-system-refusal.js';
import { sensitivePathReason } from '../../sandbox/sensitive-paths.js';
import type { Workspace, WorkspacePath } from '../../sandbox/workspace.js';
import { OUTPUT_NAME_MAX_LENGTH, checkOutputName } from './check-output-name.js';
import { collectPackageFiles, type PackageFile, type SkippedPath } from './collect-package-files.js';

/** The most files `zip_package` puts in one zip by default. */
export const ZIP_PACKAGE_MAX_FILES = 10_000;

/** The most bytes of file content `zip_package` zips by default: 100 MiB. */
export const ZIP_PACKAGE_MAX_BYTES = 100 * 1024 * 1024;

// Enough for any model to see what was left out; the full list stays in `skipped`.
const MAX_SKIP_WARNINGS = 20;

/** Options of {@link zipPackageTool}. */
export interface ZipPackageToolOptions {
  /** The workspace whose folders may be zipped. */
  readonly workspace: Workspace;
  /** Where zips are written, each in a new private folder; default the OS temp folder. */
  readonly outputDirectory?: string;
  /** Scopes of which the caller needs one; default `['workspace:write']`. */
  readonly scopes?: readonly string[];
  /** The most files in one zip; default {@link ZIP_PACKAGE_MAX_FILES}. */
  readonly maxFiles?: number;
  /** The most bytes of file content in one zip; default {@link ZIP_PACKAGE_MAX_BYTES}. */
  readonly maxBytes?: number;
}

/** The data of a successful `zip_package` call. */
export interface ZipPackageData {
  /** The absolute path of the zip written. */
  readonly zip_path: string;
  /** How many files the zip holds. */
  readonly files: number;
  /** The size of the zip in bytes. */
  readonly bytes: number;
  /** The paths left out, with why, sorted. */
  readonly skipped: readonly SkippedPath[];
}

type ZipPlan = { readonly folder: WorkspacePath; readonly name: string };
type ZipOutcome = {
  readonly zipPath: string;
  readonly files: number;
  readonly bytes: number;
  readonly sourceBytes: number;
  readonly skipped: readonly SkippedPath[];
};

/**
 * The `zip_package` tool: zips a workspace folder into `<output_name>.zip`, every file under a
 * top-level folder named `output_name`, in a new private folder (mode 0700, the zip 0600) under the
 * OS temp folder or `outputDirectory`, so calls never overwrite each other. Files are listed first
 * (see `collectPackageFiles`: no symlinks, no sensitive files, no `node_modules`/`.git`/…, each
 * resolved through the workspace) in a fixed order, then each is opened through the workspace as
 * the zip reaches it. Mutating; scopes `['workspace:write']` unless given.
 *
 * Codes: `PATH_OUTSIDE_WORKSPACE`, `INVALID_PATH`, `PATH_TOO_LONG`, `NOT_FOUND`, `NOT_A_FOLDER`,
 * `SENSITIVE_PATH` and `FILE_CHANGED` (also for a file swapped while the zip is written),
 * `INVALID_OUTPUT_NAME`, `TOO_MANY_FILES`, `PACKAGE_TOO_LARGE`, `UNKNOWN_ARGUMENT`, and `ZIP_FAILED`
 * when the zip cannot be written.
 *
 * @throws MilpaError `INVALID_ARGUMENT` when `maxFiles` or `maxBytes` is not a positive whole number.
 * @example
 * registry.register(zipPackageTool({ workspace: Workspace.at('/srv/project') }));
 * await registry.call('zip_package', { folder: 'reports/2026-q1', output_name: 'q1-reports' }, context);
 * // → { zip_path: '/tmp/milpa-zip-Xy12Ab/q1-reports.zip', files: 12, bytes: 48213, skipped: [...] }
 */
export function zipPackageTool(options: ZipPackageToolOptions): ToolDefinition<{ folder: string; output_name: string }> {
  const {
    workspace,
    outputDirectory,
    scopes = ['workspace:write'],
    maxFiles = ZIP_PACKAGE_MAX_FILES,
    maxBytes = ZIP_PACKAGE_MAX_BYTES,
  } = options;
  for (const [key, value] of [
    ['maxFiles', maxFiles],
    ['maxBytes', maxBytes],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) {
      throw new MilpaError(`zipPackageTool ${key} must be a whole number ≥ 1, got ${String(value)}.`, { code: 'INVALID_ARGUMENT' });
    }
  }

  const input = Type.Object(
    {
      folder: Type.String({
        minLength: 1,
        maxLength: 4096,
        description: "The folder to zip, relative to the workspace root ('.' for the whole workspace).",
      }),
      output_name: Type.String({
        minLength: 1,
        maxLength: OUTPUT_NAME_MAX_LENGTH,
        pattern: '^[A-Za-z0-9._-]+$',
        description: "The zip's name without '.zip', also its top-level folder: letters, digits, '.', '_' and '-'.",
      }),
    },
    { additionalProperties: false },
  );

  return defineLifecycleTool<typeof input, ZipPlan, ZipOutcome>({
    name: 'zip_package',
    description: [
      'Zip a workspace folder into <output_name>.zip and get the path of the zip.',
      'Every file goes under a top-level folder named output_name, in a fixed order.',
      'Symlinks, files that hold secrets (.env, keys, credentials) and folders such as node_modules and .git ' +
        'are left out and listed in skipped.',
      `At most ${maxFiles} files and ${maxBytes} bytes; zip a smaller folder when a call is refused for size.`,
    ].join(' '),
    input,
    scopes: [...scopes],
    mutating: true,
    timeoutMs: 120_000,
    routing: {
      intents: ['zip a folder', 'package files for download', 'create an archive', 'bundle a project'],
      domains: ['files', 'workspace', 'archive'],
      tags: ['zip', 'archive', 'writes-temp-file'],
      examples: ['{"folder":"reports/2026-q1","output_name":"q1-reports"}'],
    },
    plan: async (args) => {
      const unknown = rejectUnknownArguments(args, ['folder', 'output_name']);
      if (unknown !== null) return { result: unknown };
      const name = checkOutputName(args.output_name);
      const folder = await workspace.resolve(args.folder, { mustExist: true });
      const folderStats = await stat(folder.absolute).catch((error: unknown) => {
        throw fileSystemRefusal(error, folder.relative);
      });
      if (!folderStats.isDirectory()) return { result: failure('NOT_A_FOLDER', `'${folder.relative}' is not a folder.`) };
      const sensitive = sensitivePathReason(folder.relative);
      if (sensitive !== null) return { result: failure('SENSITIVE_PATH', `'${folder.relative}' cannot be zipped: ${sensitive}.`) };
      return { input: { folder, name } };
    },
    perform: async ({ folder, name }, invocation) => {
      const listed = await collectPackageFiles(workspace, folder, { maxFiles, maxBytes }, invocation.signal);
      // Created only after listing, so a zip written inside the workspace is never zipped itself.
      let directory: string;
      try {
        directory = await mkdtemp(join(outputDirectory ?? tmpdir(), 'milpa-zip-'));
      } catch (error) {
        // The error's message names the host's folder: only its code reaches the model.
        throw new ToolError('ZIP_FAILED', `The output folder could not be created (${errnoOf(error)}).`);
      }
      const zipPath = join(directory, `${name}.zip`);
      try {
        await writeZip(workspace, listed.files, name, zipPath, invocation.signal);
      } catch (error) {
        await rm(directory, { recursive: true, force: true });
        if (error instanceof ToolError || invocation.signal.aborted) throw error;
        throw new ToolError('ZIP_FAILED', `The zip could not be written (${errnoOf(error)}).`);
      }
      const { size } = await stat(zipPath);
      return { zipPath, files: listed.files.length, bytes: size, sourceBytes: listed.bytes, skipped: listed.skipped };
    },
    complete: (outcome) => {
      const warnings = outcome.skipped.slice(0, MAX_SKIP_WARNINGS).map((entry) => `Skipped '${entry.path}': ${entry.reason}.`);
      if (outcome.skipped.length > MAX_SKIP_WARNINGS)
        warnings.push(`… and ${outcome.skipped.length - MAX_SKIP_WARNINGS} more skipped paths (see skipped).`);
      if (outcome.files === 0) warnings.push('No files were zipped: the zip holds only its top-level folder.');
      return success<ZipPackageData>(
        { zip_path: outcome.zipPath, files: outcome.files, bytes: outcome.bytes, skipped: outcome.skipped },
        { source_bytes: outcome.sourceBytes },
        warnings,
      );
    },
  });
}

/** What went wrong, without a host path: a file-system error's code (its message names the path), else the message. */
function errnoOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : 'an error';
}

/** Writes the zip: each file is opened through the workspace (symlink-safe) only when the zip reaches it. */
function writeZip(workspace: Workspace, files: readonly PackageFile[], name: string, zipPath: string, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const zip = new ZipFile();
    const output = createWriteStream(zipPath, { flags: 'wx', mode: 0o600 });
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      output.destroy();
      reject(error);
    };
    const onAbort = () => fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    zip.on('error', fail);
    output.on('error', fail);
    output.on('close', () => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
    if (files.length === 0) zip.addEmptyDirectory(`${name}/`);
    for (const file of files) {
      // `size` makes yazl fail the zip if the file changed since it was listed.
      zip.addReadStreamLazy(`${name}/${file.entryName}`, { size: file.size, mtime: file.mtime, mode: 0o100000 | file.mode }, (callback) => {
        workspace.openForRead(file.path).then(
          (opened) => callback(null, opened.handle.createReadStream()),
          (error: unknown) => callback(error, undefined as unknown as NodeJS.ReadableStream),
        );
      });
    }
    zip.outputStream.pipe(output);
    zip.end();
  });
}
