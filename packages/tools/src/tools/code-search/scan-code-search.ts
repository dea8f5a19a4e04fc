import type { Workspace, WorkspacePath } from '../../sandbox/workspace.js';
import { ToolError } from '../../lifecycle/tool-error.js';
import type { BoundedRegex, LineHit } from './bounded-regex.js';
import type { CodeSearchMatch } from './code-search-data.js';
import { collectSearchFiles } from './collect-search-files.js';
import { loadSearchFile, type SearchFile, type SearchSkipCounts } from './load-search-file.js';

/** The scan stops once this many matching rows are found. */
export const CODE_SEARCH_MAX_ROWS = 1000;
/** The most files one scan lists. */
export const CODE_SEARCH_MAX_FILES = 20_000;
/** Lines longer than this are returned as a window around the match. */
const MAX_TEXT_LENGTH = 240;
/** Files matched together in one timed regex run (fewer runs, each with a fixed set-up cost). */
const BATCH_FILES = 256;
const BATCH_CHARACTERS = 2 * 1024 * 1024;

/** A checked `code_search` call: what to find, where, and which window of rows to build. */
export interface PlannedCodeSearch {
  /** The literal text (or the source of `regex`). */
  readonly pattern: string;
  /** The compiled regular expression, or null for a literal search. */
  readonly regex: BoundedRegex | null;
  /** The folder or file searched. */
  readonly start: WorkspacePath;
  /** Lines of context around each match. */
  readonly contextLines: number;
  /** The first row of the window. */
  readonly offset: number;
  /** How many rows the window holds. */
  readonly limit: number;
}

/** What one scan found. */
export interface CodeSearchScan {
  /** The rows of the requested window `[offset, offset + limit)`, with their context. */
  readonly window: readonly CodeSearchMatch[];
  /** How many matching rows were found. */
  readonly total: number;
  /** True when the scan stopped at {@link CODE_SEARCH_MAX_ROWS}. */
  readonly capped: boolean;
  /** True when the scan stopped at its time budget. */
  readonly outOfTime: boolean;
  /** True when the file list stopped at {@link CODE_SEARCH_MAX_FILES}. */
  readonly filesTruncated: boolean;
  /** How many files were read and matched. */
  readonly filesSearched: number;
  /** What was left out, by why. */
  readonly skipped: SearchSkipCounts;
}

/** The clock a scan's time budget is measured with. */
export interface CodeSearchClock {
  /** The current time in milliseconds. */
  readonly now: () => number;
  /** How long the scan may run before it stops with partial results, in ms. */
  readonly timeBudgetMs: number;
}

function cut(line: string, column: number): string {
  if (line.length <= MAX_TEXT_LENGTH) return line;
  // A window that shows the match with a little of what leads up to it.
  const start = Math.max(0, Math.min(column - 60, line.length - MAX_TEXT_LENGTH));
  const end = start + MAX_TEXT_LENGTH;
  return `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < line.length ? '…' : ''}`;
}

function literalHits(lines: readonly string[], pattern: string): LineHit[] {
  const hits: LineHit[] = [];
  lines.forEach((line, index) => {
    const column = line.indexOf(pattern);
    if (column >= 0) hits.push({ index, column });
  });
  return hits;
}

/**
 * Runs one planned search over the workspace: lists the files, reads them in path order, matches
 * them in batches, counts every matching row (up to {@link CODE_SEARCH_MAX_ROWS}) and builds only
 * the requested window. Stops early at the time budget.
 *
 * @throws ToolError `SEARCH_ABORTED` when `signal` aborts.
 * @example
 * const found = await scanCodeSearch(workspace, planned, signal, { now: () => performance.now(), timeBudgetMs: 10_000 });
 */
export async function scanCodeSearch(
  workspace: Workspace,
  planned: PlannedCodeSearch,
  signal: AbortSignal,
  clock: CodeSearchClock,
): Promise<CodeSearchScan> {
  // The budget covers listing the files too, not only reading them.
  const deadline = clock.now() + clock.timeBudgetMs;
  const list = await collectSearchFiles(workspace, planned.start, CODE_SEARCH_MAX_FILES);
  const skipped: SearchSkipCounts = {
    directories: list.skippedDirectories,
    sensitive: list.skippedSensitive,
    symlinks: list.skippedSymlinks,
    large: 0,
    binary: 0,
    unreadable: list.unreadableDirectories,
  };
  const window: CodeSearchMatch[] = [];
  const windowEnd = planned.offset + planned.limit;
  let total = 0;
  let capped = false;
  let outOfTime = false;
  let filesSearched = 0;
  let batch: SearchFile[] = [];
  let batchCharacters = 0;

  const flush = (): void => {
    const found =
      planned.regex === null
        ? batch.map((file) => literalHits(file.lines, planned.pattern))
        : planned.regex.matchFiles(batch.map((file) => file.lines));
    batch.forEach((file, position) => {
      for (const hit of found[position] ?? []) {
        if (capped) return;
        if (total === CODE_SEARCH_MAX_ROWS) {
          capped = true;
          return;
        }
        // Only the requested window is built in full; the other rows are only counted.
        if (total >= planned.offset && total < windowEnd) {
          const line = file.lines[hit.index] ?? '';
          const row: { -readonly [K in keyof CodeSearchMatch]: CodeSearchMatch[K] } = {
            file: file.path.relative,
            line: hit.index + 1,
            text: cut(line, hit.column),
          };
          if (planned.contextLines > 0) {
            const from = Math.max(0, hit.index - planned.contextLines);
            row.context = {
              before: file.lines.slice(from, hit.index).map((text) => cut(text, 0)),
              after: file.lines.slice(hit.index + 1, hit.index + 1 + planned.contextLines).map((text) => cut(text, 0)),
            };
          }
          window.push(row);
        }
        total += 1;
      }
    });
    batch = [];
    batchCharacters = 0;
  };

  for (const path of list.files) {
    if (signal.aborted) throw new ToolError('SEARCH_ABORTED', 'The search was aborted by the caller.');
    if (clock.now() > deadline) {
      outOfTime = true;
      break;
    }
    const loaded = await loadSearchFile(workspace, path, skipped);
    if (loaded === null) continue;
    filesSearched += 1;
    batch.push(loaded);
    batchCharacters += loaded.lines.reduce((sum, line) => sum + line.length, 0);
    if (batch.length >= BATCH_FILES || batchCharacters >= BATCH_CHARACTERS) flush();
    if (capped) break;
  }
  if (!capped && batch.length > 0) flush();
  return { window, total, capped, outOfTime, filesTruncated: list.truncated, filesSearched, skipped };
}
