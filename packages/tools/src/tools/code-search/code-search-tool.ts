import { MilpaError, Type, type ToolDefinition } from '@milpa/core';
import { rejectUnknownArguments, validatePaging } from '../../lifecycle/argument-checks.js';
import { defineLifecycleTool } from '../../lifecycle/define-lifecycle-tool.js';
import { failure, success } from '../../lifecycle/tool-envelope.js';
import { sensitivePathReason } from '../../sandbox/sensitive-paths.js';
import { Workspace, type WorkspacePath } from '../../sandbox/workspace.js';
import { BoundedRegex } from './bounded-regex.js';
import type { CodeSearchArgs, CodeSearchData, CodeSearchMatch } from './code-search-data.js';
import {
  CODE_SEARCH_MAX_FILES,
  CODE_SEARCH_MAX_ROWS,
  scanCodeSearch,
  type CodeSearchScan,
  type PlannedCodeSearch,
} from './scan-code-search.js';

// The tool's argument and result types travel with it.
export type { CodeSearchArgs, CodeSearchData, CodeSearchMatch } from './code-search-data.js';

/** Settings of {@link codeSearchTool}. */
export interface CodeSearchToolOptions {
  /** The folder searched; every path the model gives is relative to its root. */
  readonly workspace: Workspace;
  /** Scopes of which the caller needs one; default `['workspace:read']`. */
  readonly scopes?: readonly string[];
  /** How long one batch of files may take to match a regular expression before `REGEX_TIMEOUT`, in ms; default 1000. */
  readonly regexTimeoutMs?: number;
  /** How long a whole scan may run before it stops with partial results, in ms; default 10 000. */
  readonly timeBudgetMs?: number;
  /** The clock the time budget is measured with, in ms; default `performance.now`. */
  readonly now?: () => number;
}

const ARGUMENT_NAMES = ['pattern', 'is_regex', 'path', 'context_lines', 'offset', 'limit'] as const;
/** A page holds at most this many bytes of JSON rows (always at least one row). */
const MAX_PAGE_BYTES = 8192;
const MAX_CONTEXT_LINES = 5;
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;
const MAX_LITERAL_LENGTH = 1000;
const MAX_REGEX_LENGTH = 500;
const MAX_REGEX_LINE_LENGTH = 4096;

const INPUT = Type.Object(
  {
    pattern: Type.String({
      minLength: 1,
      maxLength: MAX_LITERAL_LENGTH,
      description: 'The text to find (literal, case-sensitive), or a JavaScript regular expression when is_regex is true.',
    }),
    is_regex: Type.Optional(
      Type.Boolean({ description: 'Treat pattern as a JavaScript regular expression (no slashes, no flags). Default false.' }),
    ),
    path: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description:
          "A folder or file to search, relative to the workspace root, e.g. 'src' or 'src/app.ts'. Default: the whole workspace.",
      }),
    ),
    context_lines: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_CONTEXT_LINES,
        description: `Lines of context before and after each match, 0 to ${MAX_CONTEXT_LINES}. Default 0.`,
      }),
    ),
    offset: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: CODE_SEARCH_MAX_ROWS,
        description: 'Rows to skip: pass the next_offset of the previous page. Default 0.',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_LIMIT,
        description: `The most rows in one page, 1 to ${MAX_LIMIT}. Default ${DEFAULT_LIMIT}.`,
      }),
    ),
  },
  { additionalProperties: false },
);

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new MilpaError(`codeSearchTool: ${name} must be a whole number ≥ 1, got ${String(value)}.`, { code: 'INVALID_ARGUMENT' });
  }
  return value;
}

function pageOf(window: readonly CodeSearchMatch[]): CodeSearchMatch[] {
  const page: CodeSearchMatch[] = [];
  let bytes = 2;
  for (const row of window) {
    const size = Buffer.byteLength(JSON.stringify(row)) + 1;
    if (page.length > 0 && bytes + size > MAX_PAGE_BYTES) break;
    page.push(row);
    bytes += size;
  }
  return page;
}

/**
 * Creates the `code_search` tool: finds a literal string (default) or a JavaScript regular
 * expression in the text files of the workspace, line by line, and returns the matching rows in
 * pages.
 *
 * - Files are searched in path order, lines in order; the scan stops at 1000 matching rows. A page
 *   holds at most `limit` rows and 8 KiB (8192 bytes) of rows; when more follow, `truncated` is true
 *   and `next_offset` is the `offset` of the next page.
 * - Skipped: folders in `SKIPPED_DIRECTORIES` and sensitive folders (`node_modules`, `.git`,
 *   `.ssh`, …), secret files (`.env*`, `id_rsa`, `*.pem`, …), files over 1 MiB, binary files
 *   (a NUL in the first 8 KiB), files with more than one hard link and **every symlink**: none is
 *   followed, and each file is opened through `Workspace.openForRead` (no final symlink, checked
 *   again once open against the root and the sensitive list), so neither a link that points out of
 *   the workspace nor a folder swapped for one while the search runs is ever read. A `path` the model names explicitly may lie inside a
 *   skipped folder such as `node_modules`, but never inside a sensitive one (`SENSITIVE_PATH`).
 * - Regular expressions are guarded against catastrophic backtracking by {@link BoundedRegex}: at
 *   most 500 characters, lines matched on their first 4096 characters, and every batch of files
 *   matched in a separate V8 context under a timeout (`regexTimeoutMs`), which stops a runaway match
 *   with `REGEX_TIMEOUT`. The whole scan also stops after `timeBudgetMs`, with partial results.
 *
 * Failure codes: `UNKNOWN_ARGUMENT`, `INVALID_PATTERN`, `INVALID_ARGUMENT`, `INVALID_LIMIT`,
 * `INVALID_OFFSET`, `INVALID_PATH`, `PATH_OUTSIDE_WORKSPACE`, `PATH_TOO_LONG`, `NOT_FOUND`, `SENSITIVE_PATH`,
 * `PATTERN_TOO_LONG`, `INVALID_REGEX`, `REGEX_TIMEOUT`, `SEARCH_ABORTED`.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for a missing workspace or a bad time limit.
 * @example
 * const registry = new ToolRegistry();
 * registry.register(codeSearchTool({ workspace: Workspace.at('/srv/project') }));
 * await registry.call('code_search', { pattern: 'createServer', path: 'src', context_lines: 2 }, context);
 */
export function codeSearchTool(options: CodeSearchToolOptions): ToolDefinition<CodeSearchArgs> {
  if (!(options?.workspace instanceof Workspace)) {
    throw new MilpaError('codeSearchTool: workspace must be a Workspace (Workspace.at(folder)): the search reads nowhere else.', {
      code: 'INVALID_ARGUMENT',
    });
  }
  const workspace = options.workspace;
  const regexTimeoutMs = positiveInteger('regexTimeoutMs', options.regexTimeoutMs, 1000);
  const timeBudgetMs = positiveInteger('timeBudgetMs', options.timeBudgetMs, 10_000);
  const now = options.now ?? (() => performance.now());

  return defineLifecycleTool<typeof INPUT, PlannedCodeSearch, CodeSearchScan>({
    name: 'code_search',
    title: 'Code search',
    description:
      `Search the text files of the workspace at ${workspace.root} for a string (literal by default) or a JavaScript ` +
      'regular expression (is_regex: true), and get matching lines as { file, line, text }, ordered by file path. ' +
      "Paths are relative to that root: pass path ('src', 'src/app.ts') to narrow the search; no absolute paths, no '..'. " +
      'Dependency, VCS, secret, binary and files over 1 MiB are skipped. Results come in pages: when truncated is true, ' +
      'call again with offset set to next_offset.',
    input: INPUT,
    scopes: options.scopes ?? ['workspace:read'],
    mutating: false,
    clamps: { context_lines: [0, MAX_CONTEXT_LINES] },
    // The pipeline's deadline sits beyond the scan's own budget, so the tool reports partial results itself.
    timeoutMs: timeBudgetMs + regexTimeoutMs + 5000,
    routing: {
      intents: ['search', 'find', 'grep', 'locate', 'lookup'],
      domains: ['code', 'files', 'workspace', 'project'],
      tags: ['grep', 'regex', 'search', 'source', 'text', 'read-only'],
      examples: ['where is createServer called?', 'find all TODO comments in src', 'search for the string "apiKey" in the project'],
    },

    plan: async (args) => {
      const unknown = rejectUnknownArguments(args, ARGUMENT_NAMES);
      if (unknown !== null) return { result: unknown };
      const paging = validatePaging(args, { maxLimit: MAX_LIMIT, maxOffset: CODE_SEARCH_MAX_ROWS });
      if (paging !== null) return { result: paging };
      const { pattern } = args;
      if (typeof pattern !== 'string' || pattern === '')
        return { result: failure('INVALID_PATTERN', 'pattern must be a non-empty string.') };
      if (pattern.length > MAX_LITERAL_LENGTH) {
        return {
          result: failure('PATTERN_TOO_LONG', `pattern is ${pattern.length} characters long; at most ${MAX_LITERAL_LENGTH} are accepted.`),
        };
      }
      if (args.is_regex !== undefined && typeof args.is_regex !== 'boolean') {
        return { result: failure('INVALID_ARGUMENT', `is_regex must be true or false, got ${JSON.stringify(args.is_regex)}.`) };
      }
      const contextLines = args.context_lines ?? 0;
      if (!Number.isInteger(contextLines)) {
        return {
          result: failure(
            'INVALID_ARGUMENT',
            `context_lines must be a whole number from 0 to ${MAX_CONTEXT_LINES}, got ${JSON.stringify(contextLines)}.`,
          ),
        };
      }
      let start: WorkspacePath;
      if (args.path === undefined) {
        start = { absolute: workspace.root, relative: '.', exists: true };
      } else {
        start = await workspace.resolve(args.path, { mustExist: true });
        const reason = sensitivePathReason(start.relative) ?? sensitivePathReason(args.path);
        if (reason !== null)
          return { result: failure('SENSITIVE_PATH', `'${args.path}' cannot be searched: ${reason}.`, { path: args.path }) };
      }
      const regex =
        args.is_regex === true
          ? BoundedRegex.compile(pattern, {
              maxPatternLength: MAX_REGEX_LENGTH,
              maxLineLength: MAX_REGEX_LINE_LENGTH,
              timeoutMs: regexTimeoutMs,
            })
          : null;
      return {
        input: {
          pattern,
          regex,
          start,
          // Clamped here too, for callers that run the handler without the pipeline's clamps.
          contextLines: Math.min(MAX_CONTEXT_LINES, Math.max(0, contextLines)),
          offset: args.offset ?? 0,
          limit: args.limit ?? DEFAULT_LIMIT,
        },
      };
    },

    perform: (planned, invocation) => scanCodeSearch(workspace, planned, invocation.signal, { now, timeBudgetMs }),

    complete: (found, planned) => {
      const matches = pageOf(found.window);
      const end = planned.offset + matches.length;
      const more = end < found.total;
      const data: CodeSearchData = {
        matches,
        total: found.total,
        truncated: more || found.capped || found.outOfTime || found.filesTruncated,
        ...(more ? { next_offset: end } : {}),
      };
      const warnings: string[] = [];
      if (more) warnings.push(`Showing rows ${planned.offset + 1}–${end} of ${found.total}: call again with offset ${end} for more.`);
      if (found.capped)
        warnings.push(`The scan stopped at ${CODE_SEARCH_MAX_ROWS} matching rows: narrow path or the pattern to see the rest.`);
      if (found.outOfTime)
        warnings.push(`The scan stopped after ${timeBudgetMs} ms, so results are incomplete: narrow path or the pattern.`);
      if (found.filesTruncated) warnings.push(`Only the first ${CODE_SEARCH_MAX_FILES} files were listed: narrow path to search the rest.`);
      if (planned.offset > 0 && planned.offset >= found.total)
        warnings.push(`offset ${planned.offset} is past the last row (${found.total} found).`);
      return success(
        data,
        {
          path: planned.start.relative,
          files_searched: found.filesSearched,
          skipped: { ...found.skipped },
          ...(more ? { next_offset: end } : {}),
        },
        warnings,
      );
    },
  }) as ToolDefinition<CodeSearchArgs>;
}
