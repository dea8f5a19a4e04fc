import { MilpaError } from '@milpa/core';
import { scoreToolByTool, scoreWithTermTables, type MessageScores } from './message-scores.js';
import { buildTermTables, type TermTables } from './term-tables.js';
import { ToolNameIndex } from './tool-name-index.js';
import type { ToolNameMentions } from './tool-name-mentions.js';
import type { NamedTool, ToolWeigher, WeighedTool } from './tool-weigher.js';

function invalid(message: string): MilpaError {
  return new MilpaError(`ToolRouter: ${message}`, { code: 'INVALID_ARGUMENT' });
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
      ? scoreToolByTool(this.#weighedTools(weigher), counts, always, weigher.vocabulary)
      : scoreWithTermTables(this.#termTables(weigher), this.tools.length, counts, always, weigher.vocabulary);
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
    this.#terms ??= buildTermTables(this.#weighedTools(weigher), weigher.vocabulary.size);
    return this.#terms;
  }
}
