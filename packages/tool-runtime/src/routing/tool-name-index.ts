import { type ToolNameMentions, leadingToolWord } from './tool-name-mentions.js';

// Names are looked up by the character trigrams of a mention (bigrams for a two-character one), so
// a mention is compared only with the names sharing its rarest trigram.
const GRAM = 3;
const SHORT_GRAM = 2;
const UNIT = 0x1_0000;

/** The key of the `length` UTF-16 code units of `text` from `at`: exact, since 3 × 16 bits fit a double. */
function gramKey(text: string, at: number, length: number): number {
  let key = 0;
  for (let offset = 0; offset < length; offset++) key = key * UNIT + text.charCodeAt(at + offset);
  return key;
}

/**
 * The canonical names of one tool list (see `canonicalToolName`), indexed so that the tools a
 * message names are found from its mentions without comparing the message with every name. It
 * answers exactly what `ToolNameMentions.namesCanonical` answers for each name: a plain word equal
 * to the whole name or to its first part, an identifier contained in the name, or an identifier containing the whole
 * name as segments. Indexes are built on first use and kept, so the index pays off when the same
 * list is routed again.
 * @internal
 */
export class ToolNameIndex {
  readonly #names: readonly string[];
  #positionsByName: Map<string, number[]> | undefined;
  #positionsByLeadingWord: Map<string, number[]> | undefined;
  #longest = 0;
  readonly #grams = new Map<number, Map<number, number[]>>();

  /** `names[position]` is the canonical name of the tool at `position`; an empty one is never named. */
  constructor(names: readonly string[]) {
    this.#names = names;
  }

  /**
   * The positions of the names `mentions` names, each once, in no particular order.
   *
   * @example
   * new ToolNameIndex(['delete_note', 'shell_exec']).namedBy(ToolNameMentions.fromMessage('use ShellTool')); // [1]
   */
  namedBy(mentions: ToolNameMentions): number[] {
    const found = new Set<number>();
    const byName = this.#byName();
    const add = (positions: readonly number[] | undefined): void => {
      if (positions !== undefined) for (const position of positions) found.add(position);
    };
    const byLeadingWord = this.#byLeadingWord();
    for (const word of mentions.words) {
      add(byName.get(word));
      add(byLeadingWord.get(word));
    }
    for (const identifier of mentions.identifiers) {
      this.#addContaining(identifier, found);
      this.#addWholeSegmentsOf(identifier, byName, found);
    }
    return [...found];
  }

  #byName(): Map<string, number[]> {
    if (this.#positionsByName !== undefined) return this.#positionsByName;
    const byName = new Map<string, number[]>();
    this.#names.forEach((name, position) => {
      if (name === '') return;
      const positions = byName.get(name);
      if (positions === undefined) byName.set(name, [position]);
      else positions.push(position);
      if (name.length > this.#longest) this.#longest = name.length;
    });
    this.#positionsByName = byName;
    return byName;
  }

  /** The names by the first part a plain word may name them by (see `leadingToolWord`). */
  #byLeadingWord(): Map<string, number[]> {
    if (this.#positionsByLeadingWord !== undefined) return this.#positionsByLeadingWord;
    const byLeadingWord = new Map<string, number[]>();
    this.#names.forEach((name, position) => {
      const leading = leadingToolWord(name);
      if (leading === undefined) return;
      const positions = byLeadingWord.get(leading);
      if (positions === undefined) byLeadingWord.set(leading, [position]);
      else positions.push(position);
    });
    this.#positionsByLeadingWord = byLeadingWord;
    return byLeadingWord;
  }

  /** The names containing `identifier`: those sharing its rarest gram, each checked in full. */
  #addContaining(identifier: string, found: Set<number>): void {
    const length = identifier.length >= GRAM ? GRAM : identifier.length === SHORT_GRAM ? SHORT_GRAM : 0;
    // Identifiers need two letters in a row, so this is a safety net, not a path taken.
    const candidates = length === 0 ? this.#names.keys() : this.#rarestPostings(identifier, length);
    for (const position of candidates) {
      const name = this.#names[position] as string;
      if (name !== '' && name.includes(identifier)) found.add(position);
    }
  }

  #rarestPostings(identifier: string, length: number): readonly number[] {
    const grams = this.#gramsOf(length);
    let rarest: readonly number[] | undefined;
    for (let at = 0; at + length <= identifier.length; at++) {
      const postings = grams.get(gramKey(identifier, at, length));
      if (postings === undefined) return [];
      if (rarest === undefined || postings.length < rarest.length) rarest = postings;
    }
    return rarest ?? [];
  }

  #gramsOf(length: number): Map<number, number[]> {
    let grams = this.#grams.get(length);
    if (grams !== undefined) return grams;
    grams = new Map();
    this.#names.forEach((name, position) => {
      for (let at = 0; at + length <= name.length; at++) {
        const key = gramKey(name, at, length);
        const postings = grams.get(key);
        if (postings === undefined) grams.set(key, [position]);
        // A name repeating a gram is listed once: positions arrive in order, so check the last.
        else if (postings[postings.length - 1] !== position) postings.push(position);
      }
    });
    this.#grams.set(length, grams);
    return grams;
  }

  /**
   * The names that `identifier` contains as whole segments: every substring that starts at its
   * start or after a `_` and ends at its end or before a `_` (no longer than the longest name).
   */
  #addWholeSegmentsOf(identifier: string, byName: ReadonlyMap<string, readonly number[]>, found: Set<number>): void {
    const ends: number[] = [];
    for (let at = identifier.indexOf('_'); at !== -1; at = identifier.indexOf('_', at + 1)) ends.push(at);
    ends.push(identifier.length);
    for (let start = 0; start !== -1 && start <= identifier.length; ) {
      for (const end of ends) {
        if (end <= start) continue;
        if (end - start > this.#longest) break;
        const positions = byName.get(identifier.slice(start, end));
        if (positions !== undefined) for (const position of positions) found.add(position);
      }
      const separator = identifier.indexOf('_', start);
      start = separator === -1 ? -1 : separator + 1;
    }
  }
}
