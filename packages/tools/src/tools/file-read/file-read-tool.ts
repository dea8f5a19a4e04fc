import { MilpaError, Type, type ToolDefinition, type ToolInvocation } from '@milpa/core';
import type { FileHandle } from 'node:fs/promises';
import { rejectUnknownArguments, validatePaging } from '../../lifecycle/argument-checks.js';
import { defineLifecycleTool } from '../../lifecycle/define-lifecycle-tool.js';
import { failure, success } from '../../lifecycle/tool-envelope.js';
import { ToolError } from '../../lifecycle/tool-error.js';
import { sensitivePathReason } from '../../sandbox/sensitive-paths.js';
import { Workspace, type WorkspacePath } from '../../sandbox/workspace.js';
import type { ReadLedger } from '../read-ledger/read-ledger.js';
import { BINARY_SNIFF_BYTES, binaryContentReason, incompleteUtf8Tail } from './binary-content-reason.js';
import { readUpTo } from './read-up-to.js';

/** The most bytes of text `file_read` returns in one call (16 KiB), for a whole file or a slice. */
export const FILE_READ_MAX_BYTES = 16384;

/** The largest `limit` (lines) `file_read` accepts. */
export const FILE_READ_MAX_LIMIT = 100_000;

/** The largest `offset` (first line) `file_read` accepts. */
export const FILE_READ_MAX_OFFSET = 100_000_000;

const CHUNK_BYTES = 64 * 1024;

/** The arguments of `file_read`. */
export interface FileReadArgs {
  /** The file, relative to the workspace root. */
  readonly path: string;
  /** The first line to return, from 1. */
  readonly offset?: number;
  /** How many lines to return. */
  readonly limit?: number;
  /** Prefix each line with its number and a tab. */
  readonly line_numbers?: boolean;
}

/** The data of a successful `file_read` call. */
export interface FileReadData {
  /** The file, relative to the workspace root (symlinks resolved). */
  readonly path: string;
  /** The text read (a slice when offset, limit or line_numbers were given). */
  readonly content: string;
  /** True when the text was cut at {@link FILE_READ_MAX_BYTES}. */
  readonly truncated: boolean;
  /**
   * With offset, limit or line_numbers: the first line not returned, or null when the file ends
   * within the slice. Absent for a whole-file read.
   */
  readonly next_offset?: number | null;
}

/** Options of {@link fileReadTool}. */
export interface FileReadToolOptions {
  /** The folder the tool may read. */
  readonly workspace: Workspace;
  /** Where reads are noted per run, so `file_edit` can check them; none by default (nothing is noted). */
  readonly ledger?: ReadLedger;
  /** Scopes of which the caller needs one; default `['workspace:read']`. */
  readonly scopes?: readonly string[];
}

interface ReadPlan {
  readonly path: WorkspacePath;
  readonly slice: { readonly offset: number; readonly limit: number | null; readonly lineNumbers: boolean } | null;
}

interface ReadOutcome {
  readonly content: string;
  readonly truncated: boolean;
  readonly nextOffset: number | null;
  readonly warnings: readonly string[];
  readonly bytes: number;
}

const ARGUMENTS = ['path', 'offset', 'limit', 'line_numbers'] as const;

/**
 * The `file_read` tool: returns the text of a file in the workspace, whole (cut at
 * {@link FILE_READ_MAX_BYTES} with a warning) or as a slice of lines (`offset`, `limit`,
 * `line_numbers`, with `next_offset` to page on). Binary files (a NUL byte, invalid UTF-8 or mostly
 * control characters in the first 8 KiB) and sensitive paths (`.env`, keys, `.ssh/`, …) are refused.
 * Only what is returned is read into memory: a slice streams the file line by line. With a
 * `ledger`, a successful read in a run (`context.runId`) is noted there, which `file_edit` requires.
 * Not mutating; scopes `['workspace:read']` unless given.
 *
 * The file is checked again once open (see `Workspace.openForRead`): a folder swapped for a symlink
 * meanwhile is refused, and so is a file with more than one hard link.
 *
 * Codes: `PATH_OUTSIDE_WORKSPACE`, `INVALID_PATH`, `PATH_TOO_LONG`, `NOT_FOUND`, `NOT_A_FILE`,
 * `SENSITIVE_PATH`, `HARD_LINK`, `FILE_CHANGED`, `PERMISSION_DENIED`, `BINARY_FILE`, `INVALID_OFFSET`,
 * `INVALID_LIMIT`, `INVALID_ARGUMENT`, `UNKNOWN_ARGUMENT`.
 *
 * @throws MilpaError `INVALID_ARGUMENT` when `workspace` is not a `Workspace`.
 * @example
 * const workspace = Workspace.at('/srv/project');
 * registry.register(fileReadTool({ workspace }));
 * await registry.call('file_read', { path: 'src/index.ts', offset: 1, limit: 40, line_numbers: true }, context);
 */
export function fileReadTool(options: FileReadToolOptions): ToolDefinition<FileReadArgs> {
  const { workspace, ledger, scopes = ['workspace:read'] } = options;
  if (!(workspace instanceof Workspace)) {
    throw new MilpaError('fileReadTool needs a workspace (Workspace.at(root)).', { code: 'INVALID_ARGUMENT' });
  }

  const input = Type.Object(
    {
      path: Type.String({
        minLength: 1,
        maxLength: 4096,
        description: "The file's path relative to the workspace root, with '/' between folders, e.g. 'src/index.ts'.",
      }),
      offset: Type.Optional(
        Type.Number({ description: 'The first line to return, counting from 1. Give it (or limit) to read a large file in slices.' }),
      ),
      limit: Type.Optional(Type.Number({ description: `How many lines to return (1 to ${FILE_READ_MAX_LIMIT}).` })),
      line_numbers: Type.Optional(
        Type.Boolean({ description: 'Prefix each line with its number and a tab ("12\\t…"). The prefix is not part of the file.' }),
      ),
    },
    { additionalProperties: false },
  );

  return defineLifecycleTool<typeof input, ReadPlan, ReadOutcome>({
    name: 'file_read',
    description: [
      'Read a text file in the workspace.',
      "path is relative to the workspace root (no absolute paths, no '..' out of it).",
      `Returns at most ${FILE_READ_MAX_BYTES} bytes; a longer file is cut with a warning, ` +
        'so read it in slices with offset (first line, from 1) and limit (lines).',
      'With offset, limit or line_numbers the result has next_offset: the first line not returned, or null at the end of the file.',
      'line_numbers prefixes each line with "N<tab>"; that prefix is not part of the file, so never copy it into an edit.',
      'Binary files and secrets (.env, keys, .ssh) are refused.',
    ].join(' '),
    input,
    scopes: [...scopes],
    mutating: false,
    routing: {
      intents: ['read a file', 'show file contents', 'open a file', 'view lines of a file'],
      domains: ['files', 'workspace', 'code'],
      tags: ['read-only', 'filesystem', 'text'],
      examples: ['show me src/index.ts', 'read lines 100 to 150 of server.log', "what's in the README?"],
    },
    plan: async (args) => {
      const unknown = rejectUnknownArguments(args, ARGUMENTS);
      if (unknown !== null) return { result: unknown };
      const paging = validatePaging(args, { maxLimit: FILE_READ_MAX_LIMIT, maxOffset: FILE_READ_MAX_OFFSET, minOffset: 1 });
      if (paging !== null) return { result: paging };
      if (args.line_numbers !== undefined && typeof args.line_numbers !== 'boolean') {
        return { result: failure('INVALID_ARGUMENT', `line_numbers must be true or false, got ${JSON.stringify(args.line_numbers)}.`) };
      }
      const sensitive = sensitivePathReason(String(args.path));
      if (sensitive !== null) return { result: refuseSensitive(String(args.path), sensitive) };
      const path = await workspace.resolve(args.path, { mustExist: true });
      // Checked again after symlinks: 'notes.txt' may lead to '.env'.
      const resolvedSensitive = sensitivePathReason(path.relative);
      if (resolvedSensitive !== null) return { result: refuseSensitive(path.relative, resolvedSensitive) };
      const sliced = args.offset !== undefined || args.limit !== undefined || args.line_numbers !== undefined;
      return {
        input: {
          path,
          slice: sliced ? { offset: args.offset ?? 1, limit: args.limit ?? null, lineNumbers: args.line_numbers === true } : null,
        },
      };
    },
    perform: async ({ path, slice }) => {
      const file = await workspace.openForRead(path);
      try {
        const head = await readUpTo(file.handle, BINARY_SNIFF_BYTES);
        const binary = binaryContentReason(head.bytes, !head.more);
        if (binary !== null) {
          throw new ToolError('BINARY_FILE', `'${path.relative}' looks like a binary file (${binary}); file_read returns text only.`);
        }
        return slice === null ? await readWhole(file.handle, path) : await readSlice(file.handle, slice);
      } finally {
        await file.handle.close();
      }
    },
    complete: ({ content, truncated, nextOffset, warnings, bytes }, { path, slice }, invocation: ToolInvocation) => {
      const runId = invocation.context.runId;
      if (ledger !== undefined && runId !== null) ledger.record(runId, path.relative);
      const data: FileReadData =
        slice === null ? { path: path.relative, content, truncated } : { path: path.relative, content, truncated, next_offset: nextOffset };
      const meta =
        slice === null ? { path: path.relative, bytes, truncated } : { path: path.relative, bytes, truncated, next_offset: nextOffset };
      return success(data, meta, warnings);
    },
  });
}

function refuseSensitive(relativePath: string, reason: string) {
  return failure('SENSITIVE_PATH', `Refused to read '${relativePath}': ${reason}. Secrets are never shown to the model.`);
}

/** The longest prefix of `bytes` of at most `maxBytes` that does not cut a UTF-8 character. */
function cutAtCharacter(bytes: Buffer, maxBytes: number): Buffer {
  if (bytes.length <= maxBytes) return bytes;
  const head = bytes.subarray(0, maxBytes);
  return head.subarray(0, head.length - incompleteUtf8Tail(head));
}

async function readWhole(handle: FileHandle, path: WorkspacePath): Promise<ReadOutcome> {
  const { bytes, more } = await readUpTo(handle, FILE_READ_MAX_BYTES);
  // A cut inside a multi-byte character drops its first bytes rather than show a broken one.
  const trimmed = more ? bytes.subarray(0, bytes.length - incompleteUtf8Tail(bytes)) : bytes;
  const warnings = more
    ? [
        `Output truncated at ${FILE_READ_MAX_BYTES} bytes: '${path.relative}' is longer. ` +
          'Read the rest in slices with offset and limit (lines).',
      ]
    : [];
  return { content: trimmed.toString('utf8'), truncated: more, nextOffset: null, warnings, bytes: trimmed.length };
}

/**
 * Streams the file in chunks, counting lines, and keeps only the lines of the slice, stopping at
 * {@link FILE_READ_MAX_BYTES} of output: a huge file or a huge line is never held in memory.
 */
async function readSlice(
  handle: FileHandle,
  slice: { readonly offset: number; readonly limit: number | null; readonly lineNumbers: boolean },
): Promise<ReadOutcome> {
  const last = slice.limit === null ? Number.POSITIVE_INFINITY : slice.offset + slice.limit - 1;
  const parts: string[] = [];
  const warnings: string[] = [];
  let outputBytes = 0;
  let line = 1;
  let current: Buffer[] = [];
  let currentBytes = 0;
  let lineCut = false;
  // True while bytes after the last newline have been seen (a line not ended yet).
  let partial = false;
  let stopped: { nextOffset: number | null; truncated: boolean } | null = null;
  let sawBytesAfterLast = false;

  const inSlice = (): boolean => line >= slice.offset && line <= last;
  // Adds the finished line `line`; returns false when the output is full.
  const emit = (): boolean => {
    const prefix = slice.lineNumbers ? `${line}\t` : '';
    const text = Buffer.concat([Buffer.from(prefix), ...current]);
    if (outputBytes + text.length <= FILE_READ_MAX_BYTES && !lineCut) {
      parts.push(text.toString('utf8'));
      outputBytes += text.length;
      return true;
    }
    if (parts.length === 0) {
      // A single line longer than the cap: its start is shown, and paging goes on after it.
      const head = cutAtCharacter(text, FILE_READ_MAX_BYTES);
      parts.push(head.toString('utf8'));
      outputBytes += head.length;
      warnings.push(`Line ${line} is longer than ${FILE_READ_MAX_BYTES} bytes and was cut.`);
      stopped = { nextOffset: line + 1, truncated: true };
      return false;
    }
    stopped = { nextOffset: line, truncated: true };
    return false;
  };

  const chunk = Buffer.alloc(CHUNK_BYTES);
  let position = 0;
  reading: for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const bytes = chunk.subarray(0, bytesRead);
    if (line > last) {
      sawBytesAfterLast = true;
      break;
    }
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(10, start);
      const end = newline === -1 ? bytes.length : newline + 1;
      if (inSlice() && !lineCut) {
        // Only what can still be shown is kept: a few bytes over the cap tell that it was exceeded.
        const room = FILE_READ_MAX_BYTES + 4 - currentBytes;
        const piece = bytes.subarray(start, Math.min(end, start + Math.max(0, room)));
        current.push(Buffer.from(piece));
        currentBytes += piece.length;
        if (piece.length < end - start) lineCut = true;
      }
      if (newline === -1) {
        partial = partial || end > start;
        break;
      }
      partial = false;
      if (inSlice() && !emit()) break reading;
      line += 1;
      current = [];
      currentBytes = 0;
      lineCut = false;
      start = end;
      if (line > last) {
        sawBytesAfterLast = start < bytes.length;
        if (sawBytesAfterLast) break reading;
        continue reading;
      }
    }
  }
  if (stopped === null && partial) {
    // The last line has no newline at the end of the file.
    if (inSlice()) emit();
    line += 1;
  }

  let nextOffset: number | null;
  let truncated = false;
  if (stopped !== null) {
    ({ nextOffset, truncated } = stopped as { nextOffset: number | null; truncated: boolean });
    if (truncated && warnings.length === 0) {
      warnings.push(`Output truncated at ${FILE_READ_MAX_BYTES} bytes; continue with offset ${String(nextOffset)}.`);
    }
  } else if (line > last && sawBytesAfterLast) {
    nextOffset = line;
  } else {
    nextOffset = null;
    if (parts.length === 0 && slice.offset > 1) {
      warnings.push(`offset ${slice.offset} is past the end of the file, which has ${line - 1} line${line - 1 === 1 ? '' : 's'}.`);
    }
  }
  return { content: parts.join(''), truncated, nextOffset, warnings, bytes: outputBytes };
}
