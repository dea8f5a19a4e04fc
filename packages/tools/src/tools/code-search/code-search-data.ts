/** The arguments of the `code_search` tool. */
export interface CodeSearchArgs {
  /** The text to find, or a JavaScript regular expression when `is_regex` is true. */
  readonly pattern: string;
  /** Treat `pattern` as a regular expression; default false (literal, case-sensitive). */
  readonly is_regex?: boolean;
  /** A folder or file to search, relative to the workspace root; default the whole workspace. */
  readonly path?: string;
  /** Lines of context returned before and after each match, 0 to 5; default 0. */
  readonly context_lines?: number;
  /** How many matching rows to skip: the `next_offset` of the previous page; default 0. */
  readonly offset?: number;
  /** The most rows returned in one page; default 50. */
  readonly limit?: number;
}

/** One matching line. */
export interface CodeSearchMatch {
  /** The file's path relative to the workspace root. */
  readonly file: string;
  /** The 1-based line number. */
  readonly line: number;
  /** The line (a window around the match when the line is long). */
  readonly text: string;
  /** The lines around the match, when `context_lines` is above 0. */
  readonly context?: {
    /** Up to `context_lines` lines before the match, in order. */
    readonly before: readonly string[];
    /** Up to `context_lines` lines after the match, in order. */
    readonly after: readonly string[];
  };
}

/** What a successful `code_search` call returns. */
export interface CodeSearchData {
  /** This page of matching rows, ordered by file path, then line. */
  readonly matches: readonly CodeSearchMatch[];
  /** How many matching rows were found (at most 1000: the scan stops there). */
  readonly total: number;
  /** True when more rows exist than this page holds, or the scan stopped early. */
  readonly truncated: boolean;
  /** The `offset` of the next page, when there is one. */
  readonly next_offset?: number;
}
