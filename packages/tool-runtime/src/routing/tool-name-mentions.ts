import { ROUTING_STOP_WORDS } from './routing-stop-words.js';

// Runs of letters, digits and the separators tool names use; a mention never spans spaces.
const NON_TOKEN = /[^\p{L}\p{N}_.-]+/u;
const SEPARATOR = /[_.-]/;
const EDGE_SEPARATORS = /^[_.-]+|[_.-]+$/g;
const INNER_SEPARATOR = /[\p{L}\p{N}][_.-]+[\p{L}\p{N}]/u;
const CAMEL_HUMP = /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;
const LOWER_THEN_UPPER = /(\p{Ll})(\p{Lu})/gu;
const ACRONYM_THEN_WORD = /(\p{Lu})(\p{Lu}\p{Ll})/gu;
const SEPARATORS = /[_.\-\s]+/g;
// `e.g.` or `U.S.` look like dotted names but name nothing: a mention needs two letters in a row.
const WORDLIKE = /\p{L}{2,}/u;
const CLASS_SUFFIX = '_tool';

/**
 * The form tool names are compared in: lower case, camelCase humps and every `.`, `-` or space
 * turned into `_`, so `DeleteNote`, `delete-note` and `delete.note` all become `delete_note`.
 */
export function canonicalToolName(name: string): string {
  return name.replace(LOWER_THEN_UPPER, '$1_$2').replace(ACRONYM_THEN_WORD, '$1_$2').toLowerCase().replace(SEPARATORS, '_');
}

// A plain word this short names a tool only as its whole name: `go` or `ls` are too common to pin.
const MIN_LEADING_WORD = 3;

/**
 * The first segment of a canonical name that a plain word may name the tool by (`shell` for
 * `shell_exec`, as `ShellTool` does), or undefined for a one-segment name, a short first segment or
 * a stop word.
 * @internal
 */
export function leadingToolWord(canonical: string): string | undefined {
  const end = canonical.indexOf('_');
  if (end < MIN_LEADING_WORD) return undefined;
  const leading = canonical.slice(0, end);
  return ROUTING_STOP_WORDS.has(leading) ? undefined : leading;
}

// A name inside a longer identifier counts only as whole segments: `shell_exec` in
// `shell_exec_v2`, but never a tool named `ls` inside `false_positive`.
function containsWhole(identifier: string, name: string): boolean {
  for (let at = identifier.indexOf(name); at !== -1; at = identifier.indexOf(name, at + 1)) {
    const end = at + name.length;
    if ((at === 0 || identifier.charAt(at - 1) === '_') && (end === identifier.length || identifier.charAt(end) === '_')) return true;
  }
  return false;
}

/**
 * The tool names a message mentions: identifiers written like a tool name (`shell_exec`,
 * `notes.delete`, `ShellTool`, `deleteNote`) and plain words, which name a tool when they are its
 * whole name (`ping`) or its whole first part (`shell` for `shell_exec`). Names compare in one canonical form, so camelCase, PascalCase,
 * dots, dashes and underscores are interchangeable and case does not matter, and a class-style
 * name's `Tool` suffix may be left out.
 */
export class ToolNameMentions {
  readonly #identifiers: readonly string[];
  readonly #words: ReadonlySet<string>;

  private constructor(identifiers: readonly string[], words: ReadonlySet<string>) {
    this.#identifiers = identifiers;
    this.#words = words;
  }

  /**
   * Collects the mentions of one message.
   *
   * @example
   * const mentions = ToolNameMentions.fromMessage('Use DeleteNoteTool on note 4');
   * mentions.names('delete_note'); // true
   */
  static fromMessage(message: string): ToolNameMentions {
    const identifiers = new Set<string>();
    const words = new Set<string>();
    const seen = new Set<string>();
    for (const raw of message.split(NON_TOKEN)) {
      if (raw === '' || seen.has(raw)) continue;
      seen.add(raw);
      const lower = raw.toLowerCase();
      // Most tokens are plain lower-case words: no separator, no hump, nothing more to check.
      if (lower === raw && !SEPARATOR.test(raw)) {
        words.add(lower);
        continue;
      }
      const token = raw.replace(EDGE_SEPARATORS, '');
      if (token === '') continue;
      if (!INNER_SEPARATOR.test(token) && !CAMEL_HUMP.test(token)) {
        words.add(token.toLowerCase());
        continue;
      }
      const canonical = canonicalToolName(token);
      if (WORDLIKE.test(canonical)) identifiers.add(canonical);
      // `ShellTool` names the tool `shell_exec` as much as `shell_tool`.
      if (canonical.endsWith(CLASS_SUFFIX)) {
        const stem = canonical.slice(0, -CLASS_SUFFIX.length);
        if (WORDLIKE.test(stem)) identifiers.add(stem);
      }
    }
    return new ToolNameMentions([...identifiers], words);
  }

  /** The identifiers the message writes (`delete_note`, and `shell` for `ShellTool`), canonical. */
  get identifiers(): readonly string[] {
    return this.#identifiers;
  }

  /** The plain words the message writes, lower-cased: each names a tool as its whole name or whole first part. */
  get words(): ReadonlySet<string> {
    return this.#words;
  }

  /**
   * Whether the message names the tool: a plain word equal to its whole name or to its whole first
   * part of three or more letters (`shell` for `shell_exec`, not `she`), or an identifier
   * contained in its name or containing it (substring in both directions, so a partial mention
   * such as `delete_note` for `delete_notes` counts, and `shell_exec_v2` names `shell_exec`).
   */
  names(toolName: string): boolean {
    return this.namesCanonical(canonicalToolName(toolName));
  }

  /** {@link ToolNameMentions.names} for a name already in {@link canonicalToolName} form. */
  namesCanonical(canonical: string): boolean {
    if (canonical === '') return false;
    if (this.#words.has(canonical)) return true;
    const leading = leadingToolWord(canonical);
    if (leading !== undefined && this.#words.has(leading)) return true;
    return this.#identifiers.some((identifier) => canonical.includes(identifier) || containsWhole(identifier, canonical));
  }
}
