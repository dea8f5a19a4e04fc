import { Script, createContext, type Context } from 'node:vm';
import { ToolError } from '../../lifecycle/tool-error.js';

/** Where a pattern matched in one line: the line's index in its file and the match's offset in the line. */
export interface LineHit {
  /** The 0-based index of the line in the lines given. */
  readonly index: number;
  /** The 0-based offset of the first match within the line. */
  readonly column: number;
}

/** Limits of a {@link BoundedRegex}. */
export interface BoundedRegexLimits {
  /** The longest pattern accepted, in characters. */
  readonly maxPatternLength: number;
  /** Lines longer than this are matched on their first `maxLineLength` characters only. */
  readonly maxLineLength: number;
  /** The most time one {@link BoundedRegex.matchFiles} call may take, in ms, before it is stopped. */
  readonly timeoutMs: number;
}

// The matching loop runs inside its own V8 context so that `runInContext`'s timeout can interrupt
// it: V8 checks for termination inside the regexp backtracking loop, so a catastrophic pattern
// such as `(a+)+$` is stopped mid-match instead of blocking the event loop for minutes. Only the
// pattern text and the lines cross into the context; no function or object of ours does.
const MATCHER_SOURCE = `(function (source, files, maxLineLength) {
  const pattern = new RegExp(source);
  const found = [];
  for (let file = 0; file < files.length; file += 1) {
    const lines = files[file];
    const hits = [];
    for (let index = 0; index < lines.length; index += 1) {
      const line = lines[index];
      const match = pattern.exec(line.length > maxLineLength ? line.slice(0, maxLineLength) : line);
      if (match !== null) hits.push(index, match.index);
    }
    found.push(hits);
  }
  return found;
})`;
const RUN = new Script('matchLines(input.source, input.files, input.maxLineLength)', { filename: 'code-search-matcher.js' });

let matcherContext: Context | null = null;

function contextOf(): Context {
  if (matcherContext === null) {
    const context = createContext(Object.create(null) as object, {
      name: 'code-search-matcher',
      codeGeneration: { strings: false, wasm: false },
    });
    context['matchLines'] = new Script(MATCHER_SOURCE, { filename: 'code-search-matcher.js' }).runInContext(context) as unknown;
    matcherContext = context;
  }
  return matcherContext;
}

/**
 * A JavaScript regular expression matched line by line under a time limit, for patterns a model
 * writes. Guards against catastrophic backtracking (ReDoS) without a native engine:
 *
 * - patterns longer than `maxPatternLength` are refused (`PATTERN_TOO_LONG`), invalid ones with the
 *   engine's message (`INVALID_REGEX`);
 * - each line is matched on at most `maxLineLength` characters;
 * - every {@link matchFiles} call runs in a separate V8 context with a timeout, which interrupts a
 *   match that backtracks for too long (`REGEX_TIMEOUT`) instead of hanging the process.
 *
 * A linear-time engine (RE2) would refuse lookarounds and backreferences that models use; the
 * timeout keeps full JavaScript syntax and still bounds every call.
 *
 * @example
 * const regex = BoundedRegex.compile('export (async )?function', { maxPatternLength: 500, maxLineLength: 4096, timeoutMs: 1000 });
 * const [hits] = regex.matchFiles([['export function a() {}', 'const b = 1;']]); // [{ index: 0, column: 0 }]
 */
export class BoundedRegex {
  /** The pattern as given. */
  readonly source: string;
  readonly #limits: BoundedRegexLimits;

  private constructor(source: string, limits: BoundedRegexLimits) {
    this.source = source;
    this.#limits = limits;
  }

  /**
   * Checks and compiles `source`.
   * @throws ToolError `PATTERN_TOO_LONG` or `INVALID_REGEX`.
   */
  static compile(source: string, limits: BoundedRegexLimits): BoundedRegex {
    if (source.length > limits.maxPatternLength) {
      throw new ToolError(
        'PATTERN_TOO_LONG',
        `The regular expression is ${source.length} characters long; at most ${limits.maxPatternLength} are accepted. ` +
          'Shorten it or search literally.',
        { details: { length: source.length, max: limits.maxPatternLength } },
      );
    }
    try {
      // Parsing is linear in the pattern's length; only matching can backtrack.
      new RegExp(source);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ToolError(
        'INVALID_REGEX',
        `pattern is not a valid JavaScript regular expression: ${reason}. Fix it, or set is_regex to false to search the text literally.`,
      );
    }
    return new BoundedRegex(source, limits);
  }

  /**
   * The lines of each file that match, in order, with the column of the first match.
   * @throws ToolError `REGEX_TIMEOUT` when matching takes longer than `timeoutMs`.
   */
  matchFiles(files: readonly (readonly string[])[]): LineHit[][] {
    const context = contextOf();
    context['input'] = { source: this.source, files, maxLineLength: this.#limits.maxLineLength };
    let found: unknown;
    try {
      found = RUN.runInContext(context, { timeout: this.#limits.timeoutMs });
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        throw new ToolError(
          'REGEX_TIMEOUT',
          `The regular expression ran longer than ${this.#limits.timeoutMs} ms and was stopped: it probably backtracks catastrophically ` +
            '(nested quantifiers such as (a+)+ or (.*)*, or overlapping alternatives). Simplify it, or set is_regex to false.',
          { details: { timeout_ms: this.#limits.timeoutMs } },
        );
      }
      throw error;
    } finally {
      // The lines are not kept alive by the shared context between calls.
      context['input'] = undefined;
    }
    return Array.from(found as ArrayLike<ArrayLike<number>>, (hits) => {
      const pairs: LineHit[] = [];
      for (let position = 0; position + 1 < hits.length; position += 2) {
        pairs.push({ index: hits[position] as number, column: hits[position + 1] as number });
      }
      return pairs;
    });
  }
}
