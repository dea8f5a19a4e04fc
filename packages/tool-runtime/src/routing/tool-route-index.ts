import { MilpaError } from '@milpa/core';
import { ToolNameIndex } from './tool-name-index.js';
import type { ToolNameMentions } from './tool-name-mentions.js';

/** What the index needs of a tool (`RoutableTool`, without importing the router). */
interface NamedTool {
  readonly name: string;
}

/**
 * A tool's words, as ids in the router's vocabulary, with the summed weight of the sources each
 * appears in (each id once, in the order the sources first say it), and its canonical name.
 * @internal
 */
export interface WeighedTool {
  /** The ids of the tool's words in the router's vocabulary. */
  readonly termIds: Int32Array;
  /** The summed source weight of each word, by the position of its id in `termIds`. */
  readonly weights: Float64Array;
  /** The tool's name in `canonicalToolName` form, for pinning. */
  readonly canonicalName: string;
}

/** How the index turns its tools into words: the router's cached weighing, with the vocabulary it numbers words in. */
export interface ToolWeigher {
  /** The tool's words, numbered in `vocabulary`. */
  readonly weigh: (tool: NamedTool) => WeighedTool;
  /** The router's vocabulary: word → id. */
  readonly vocabulary: ReadonlyMap<string, number>;
}

/** One message's scores over the index's tools. */
export interface MessageScores {
  /** The positions of the tools carrying a word of the message (always-included ones left out), each once. */
  readonly hits: readonly number[];
  /** By position: 1 for a tool in `hits`, else 0. */
  readonly isHit: Uint8Array;
  /** By position: the tool's score, 0 for a tool that is not a hit. */
  readonly scores: Float64Array;
}

// Rarity weighting needs enough tools to tell a rare word from a common one.
const RARITY_MIN_TOOLS = 3;
// Scores are rounded so that equal matches summed in a different order still tie (and then break
// on the name) instead of differing in the last bit of a float.
const SCORE_PRECISION = 1e9;

function invalid(message: string): MilpaError {
  return new MilpaError(`ToolRouter: ${message}`, { code: 'INVALID_ARGUMENT' });
}

/**
 * What one weight point of a word said `count` times is worth before rarity: 1/√n. The words a
 * pasted document repeats are its topic, while the request around it is usually said once, and
 * must not be outranked by it.
 */
function repeatFactor(count: number): number {
  return 1 / Math.sqrt(count);
}

/** How much rarer words count: a word only one of `candidates` carries counts 1 + ln(n) times; one every tool carries, once. */
function rarityFactor(candidates: number, carried: number): number {
  return 1 + Math.log(candidates / carried);
}

/** Marks in `marked` the tools carrying any of `words`. */
function markCarriers(words: readonly number[], postingStart: Int32Array, postings: Int32Array, marked: Uint8Array): void {
  for (const word of words) {
    const end = postingStart[word + 1] as number;
    for (let at = postingStart[word] as number; at < end; at++) marked[postings[at] as number] = 1;
  }
}

/**
 * The marked tools, in position order, with each one's score in `scores`: its words' weight ×
 * factor, summed in the tool's own word order (as the router always summed, so the float result
 * is the same), rounded. Position order keeps the reads of the word tables in sequence.
 */
function sumScores(
  marked: Uint8Array,
  toolStart: Int32Array,
  toolTerms: Int32Array,
  toolWeights: Float64Array,
  factor: Float64Array,
  scores: Float64Array,
): number[] {
  const hits: number[] = [];
  for (let position = 0; position < marked.length; position++) {
    if (marked[position] === 0) continue;
    hits.push(position);
    const end = toolStart[position + 1] as number;
    let score = 0;
    for (let at = toolStart[position] as number; at < end; at++)
      score += (toolWeights[at] as number) * (factor[toolTerms[at] as number] as number);
    scores[position] = Math.round(score * SCORE_PRECISION) / SCORE_PRECISION;
  }
  return hits;
}

/** The words of every tool, laid out flat, with the tools carrying each word (an inverted index). */
interface TermTables {
  /** Router vocabulary id → the index's own word number, −1 for a word none of its tools carries. */
  readonly localOf: Int32Array;
  /** Tool `p`'s words are at `toolStart[p]` up to `toolStart[p + 1]` of `toolTerms` and `toolWeights`. */
  readonly toolStart: Int32Array;
  readonly toolTerms: Int32Array;
  readonly toolWeights: Float64Array;
  /** The tools carrying word `w` are at `postingStart[w]` up to `postingStart[w + 1]` of `postings`. */
  readonly postingStart: Int32Array;
  readonly postings: Int32Array;
  /** Per-call scratch, indexed by word: what one weight point of the word is worth this message (0 between calls). */
  readonly factor: Float64Array;
}

/**
 * One tool list, checked and indexed for routing: the tools carrying each word with their weights
 * and the word's document frequency, canonical names for pinning, lower-cased names for
 * always-included tools and the name order. The router keeps one per list it sees again, so a
 * route costs the message's words and the tools they hit instead of a pass over every tool.
 *
 * It is valid as long as the list holds the same tools and the tools do not change: the router
 * keeps it only for a list of frozen tools, and checks a list that is not frozen for the same
 * tools before each reuse.
 * @internal
 */
export class ToolRouteIndex<T extends NamedTool> {
  /** The tools, in registration order. */
  readonly tools: readonly T[];
  /** Whether every tool is frozen, so what the index read from them stays true. */
  readonly reusable: boolean;
  // The tools the index was built from when the list itself may still change.
  readonly #snapshot: readonly T[] | undefined;
  #lowerNames: Map<string, number[]> | undefined;
  #byName: Int32Array | undefined;
  #nameRanks: Int32Array | undefined;
  #sortedTools: readonly T[] | undefined;
  #registeredNames: readonly string[] | undefined;
  #weighed: readonly WeighedTool[] | undefined;
  #terms: TermTables | undefined;
  #names: ToolNameIndex | undefined;
  #uses = 0;

  /**
   * Checks `tools` (in registration order) as the router does.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a tool without a string name or two tools with one name.
   */
  constructor(tools: readonly T[]) {
    const names = new Set<string>();
    let reusable = true;
    for (const tool of tools) {
      if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string') {
        throw invalid('every tool needs a string name.');
      }
      if (names.has(tool.name)) throw invalid(`tool names must be unique; '${tool.name}' appears twice.`);
      names.add(tool.name);
      if (reusable && !Object.isFrozen(tool)) reusable = false;
    }
    this.tools = tools;
    this.reusable = reusable;
    this.#snapshot = Object.isFrozen(tools) ? undefined : [...tools];
  }

  /** Counts one route over the index; call once per route. */
  use(): this {
    this.#uses++;
    return this;
  }

  // Lookups that cost more to build than one pass over the tools (sorted names, name maps) are
  // built once the index is used a second time, so a list routed once costs what a pass costs.
  get #worthIndexing(): boolean {
    return this.reusable && this.#uses > 1;
  }

  /** Whether `tools` still holds exactly the tools the index was built from, in the same order. */
  holds(tools: readonly T[]): boolean {
    const snapshot = this.#snapshot;
    if (snapshot === undefined) return tools === this.tools;
    if (tools.length !== snapshot.length) return false;
    for (let position = 0; position < snapshot.length; position++) if (tools[position] !== snapshot[position]) return false;
    return true;
  }

  /** The positions of the tools whose lower-cased name is in `wanted`, in registration order. */
  positionsNamed(wanted: ReadonlySet<string>): number[] {
    if (wanted.size === 0) return [];
    if (this.#lowerNames === undefined && !this.#worthIndexing) {
      const positions: number[] = [];
      this.tools.forEach((tool, position) => {
        if (wanted.has(tool.name.toLowerCase())) positions.push(position);
      });
      return positions;
    }
    if (this.#lowerNames === undefined) {
      const lowerNames = new Map<string, number[]>();
      this.tools.forEach((tool, position) => {
        const lower = tool.name.toLowerCase();
        const positions = lowerNames.get(lower);
        if (positions === undefined) lowerNames.set(lower, [position]);
        else positions.push(position);
      });
      this.#lowerNames = lowerNames;
    }
    const positions: number[] = [];
    for (const name of wanted) positions.push(...(this.#lowerNames.get(name) ?? []));
    return positions.sort((left, right) => left - right);
  }

  /** Every tool, sorted by name, frozen. */
  sortedTools(): readonly T[] {
    if (this.#sortedTools !== undefined) return this.#sortedTools;
    this.#sortedTools = Object.freeze(Array.from(this.#nameOrder(), (position) => this.tools[position] as T));
    return this.#sortedTools;
  }

  /** Every tool's name, in registration order, frozen. */
  registeredNames(): readonly string[] {
    if (this.#registeredNames !== undefined) return this.#registeredNames;
    this.#registeredNames = Object.freeze(this.tools.map((tool) => tool.name));
    return this.#registeredNames;
  }

  /** The first `count` positions in name order that `skip` does not reject, in name order. */
  firstByName(count: number, skip: (position: number) => boolean): number[] {
    const first: number[] = [];
    if (count === 0) return first;
    if (this.#byName === undefined && !this.#worthIndexing) {
      // One pass, keeping the first `count` names seen so far in order, instead of a sort of all.
      const { tools } = this;
      for (let position = 0; position < tools.length; position++) {
        if (skip(position)) continue;
        const name = (tools[position] as T).name;
        if (first.length === count && name >= (tools[first[count - 1] as number] as T).name) continue;
        let low = 0;
        let high = first.length;
        while (low < high) {
          const middle = (low + high) >>> 1;
          if ((tools[first[middle] as number] as T).name < name) low = middle + 1;
          else high = middle;
        }
        first.splice(low, 0, position);
        if (first.length > count) first.pop();
      }
      return first;
    }
    for (const position of this.#nameOrder()) {
      if (skip(position)) continue;
      first.push(position);
      if (first.length === count) break;
    }
    return first;
  }

  /**
   * Each position's place in name order, so ties compare two numbers instead of two names; built
   * from the second route over the index on, undefined before.
   */
  nameRanks(): Int32Array | undefined {
    if (this.#nameRanks === undefined && this.#worthIndexing) {
      const order = this.#nameOrder();
      const ranks = new Int32Array(order.length);
      for (let rank = 0; rank < order.length; rank++) ranks[order[rank] as number] = rank;
      this.#nameRanks = ranks;
    }
    return this.#nameRanks;
  }

  /** The positions of the tools the message names (always-included ones too), each once. */
  namedBy(mentions: ToolNameMentions, weigher: ToolWeigher): number[] {
    if (this.#names === undefined && !this.#worthIndexing) {
      // Comparing each name once costs less than indexing the names for a list routed once.
      const weighed = this.#weighedTools(weigher);
      const named: number[] = [];
      for (let position = 0; position < weighed.length; position++) {
        if (mentions.namesCanonical((weighed[position] as WeighedTool).canonicalName)) named.push(position);
      }
      return named;
    }
    this.#names ??= new ToolNameIndex(this.#weighedTools(weigher).map((tool) => tool.canonicalName));
    return this.#names.namedBy(mentions);
  }

  /**
   * Scores the tools for a message whose words (in the router's terms) are counted in `counts`:
   * each tool's words in its own order, weight × 1/√(times said) × (1 + ln(candidates / carriers))
   * when there are three or more candidates, summed and rounded exactly as the router always has.
   * `always` holds the always-included positions, which are neither scored nor counted.
   */
  score(counts: ReadonlyMap<string, number>, always: readonly number[], weigher: ToolWeigher): MessageScores {
    // A list routed once is scored tool by tool, which costs less than building the word tables.
    return this.#terms === undefined && !this.#worthIndexing
      ? this.#scoreEach(counts, always, weigher)
      : this.#scoreHits(counts, always, weigher);
  }

  /** `score` from the word tables: only the tools carrying a word of the message are visited. */
  #scoreHits(counts: ReadonlyMap<string, number>, always: readonly number[], weigher: ToolWeigher): MessageScores {
    const { localOf, postingStart, postings, toolStart, toolTerms, toolWeights, factor } = this.#termTables(weigher);

    const words: number[] = [];
    for (const [term, count] of counts) {
      const id = weigher.vocabulary.get(term);
      const word = id === undefined || id >= localOf.length ? -1 : (localOf[id] as number);
      if (word < 0) continue;
      words.push(word);
      factor[word] = repeatFactor(count);
    }

    const candidates = this.tools.length - always.length;
    if (candidates >= RARITY_MIN_TOOLS) {
      const alwaysCarrying = new Map<number, number>();
      for (const position of always) {
        for (let at = toolStart[position] as number; at < (toolStart[position + 1] as number); at++) {
          const word = toolTerms[at] as number;
          if ((factor[word] as number) !== 0) alwaysCarrying.set(word, (alwaysCarrying.get(word) ?? 0) + 1);
        }
      }
      for (const word of words) {
        const carried = (postingStart[word + 1] as number) - (postingStart[word] as number) - (alwaysCarrying.get(word) ?? 0);
        if (carried > 0) (factor[word] as number) *= rarityFactor(candidates, carried);
      }
    }

    const isHit = new Uint8Array(this.tools.length);
    // Always-included tools are neither hits nor scored: unmarked after the walk.
    markCarriers(words, postingStart, postings, isHit);
    for (const position of always) isHit[position] = 0;
    const scores = new Float64Array(this.tools.length);
    const hits = sumScores(isHit, toolStart, toolTerms, toolWeights, factor, scores);
    for (const word of words) factor[word] = 0;
    return { hits, isHit, scores };
  }

  /** `score` tool by tool, in the router's vocabulary, without word tables. */
  #scoreEach(counts: ReadonlyMap<string, number>, always: readonly number[], weigher: ToolWeigher): MessageScores {
    const weighed = this.#weighedTools(weigher);
    const { vocabulary } = weigher;
    const factor = new Float64Array(vocabulary.size);
    const words: number[] = [];
    for (const [term, count] of counts) {
      const id = vocabulary.get(term);
      if (id === undefined) continue;
      words.push(id);
      factor[id] = repeatFactor(count);
    }
    const isAlways = new Uint8Array(weighed.length);
    for (const position of always) isAlways[position] = 1;

    const candidates = weighed.length - always.length;
    if (candidates >= RARITY_MIN_TOOLS) {
      const carriers = new Int32Array(vocabulary.size);
      for (let position = 0; position < weighed.length; position++) {
        if (isAlways[position] === 1) continue;
        const { termIds } = weighed[position] as WeighedTool;
        for (let at = 0; at < termIds.length; at++) {
          const id = termIds[at] as number;
          if ((factor[id] as number) !== 0) (carriers[id] as number)++;
        }
      }
      for (const id of words) {
        const carried = carriers[id] as number;
        if (carried > 0) (factor[id] as number) *= rarityFactor(candidates, carried);
      }
    }

    const scores = new Float64Array(weighed.length);
    const isHit = new Uint8Array(weighed.length);
    const hits: number[] = [];
    for (let position = 0; position < weighed.length; position++) {
      if (isAlways[position] === 1) continue;
      const { termIds, weights } = weighed[position] as WeighedTool;
      let score = 0;
      let hit = false;
      for (let at = 0; at < termIds.length; at++) {
        const worth = factor[termIds[at] as number] as number;
        if (worth !== 0) hit = true;
        score += (weights[at] as number) * worth;
      }
      if (!hit) continue;
      scores[position] = Math.round(score * SCORE_PRECISION) / SCORE_PRECISION;
      isHit[position] = 1;
      hits.push(position);
    }
    return { hits, isHit, scores };
  }

  #weighedTools(weigher: ToolWeigher): readonly WeighedTool[] {
    this.#weighed ??= this.tools.map((tool) => weigher.weigh(tool));
    return this.#weighed;
  }

  #nameOrder(): Int32Array {
    if (this.#byName !== undefined) return this.#byName;
    const { tools } = this;
    const order = Int32Array.from(tools.keys()).sort((left, right) => {
      const leftName = (tools[left] as T).name;
      const rightName = (tools[right] as T).name;
      return leftName < rightName ? -1 : leftName > rightName ? 1 : 0;
    });
    this.#byName = order;
    return order;
  }

  #termTables(weigher: ToolWeigher): TermTables {
    if (this.#terms !== undefined) return this.#terms;
    const weighed = this.#weighedTools(weigher);
    const localOf = new Int32Array(weigher.vocabulary.size).fill(-1);
    const toolStart = new Int32Array(weighed.length + 1);
    let carriers = new Int32Array(64);
    let words = 0;
    let total = 0;
    for (let position = 0; position < weighed.length; position++) {
      const { termIds } = weighed[position] as WeighedTool;
      for (let at = 0; at < termIds.length; at++) {
        const id = termIds[at] as number;
        let word = localOf[id] as number;
        if (word < 0) {
          word = words++;
          localOf[id] = word;
          if (word === carriers.length) {
            const grown = new Int32Array(carriers.length * 2);
            grown.set(carriers);
            carriers = grown;
          }
        }
        // A tool lists each of its words once, so this counts tools.
        (carriers[word] as number)++;
      }
      total += termIds.length;
      toolStart[position + 1] = total;
    }

    const toolTerms = new Int32Array(total);
    const toolWeights = new Float64Array(total);
    const postingStart = new Int32Array(words + 1);
    for (let word = 0; word < words; word++) postingStart[word + 1] = (postingStart[word] as number) + (carriers[word] as number);
    const postings = new Int32Array(total);
    const filled = postingStart.slice(0, words);
    for (let position = 0; position < weighed.length; position++) {
      const { termIds, weights } = weighed[position] as WeighedTool;
      const start = toolStart[position] as number;
      for (let at = 0; at < termIds.length; at++) {
        const word = localOf[termIds[at] as number] as number;
        toolTerms[start + at] = word;
        toolWeights[start + at] = weights[at] as number;
        postings[(filled[word] as number)++] = position;
      }
    }

    this.#terms = {
      localOf,
      toolStart,
      toolTerms,
      toolWeights,
      postingStart,
      postings,
      factor: new Float64Array(words),
    };
    return this.#terms;
  }
}
