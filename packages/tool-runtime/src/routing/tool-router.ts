import { MilpaError, type ToolRouting } from '@milpa/core';
import { UNLIMITED } from './model-tool-budget.js';
import { countRoutingTerms, routingTerms } from './routing-terms.js';
import { ToolNameMentions, canonicalToolName } from './tool-name-mentions.js';
import type { ToolProfile } from './tool-profile.js';
import { ToolRouteIndex } from './tool-route-index.js';
import type { ToolWeigher, WeighedTool } from './tool-weigher.js';

/** A tool as the router sees it: a tool definition fits, and so does any object with these fields. */
export interface RoutableTool {
  /** The tool's unique name. */
  readonly name: string;
  /** What the tool does; its words count as the description signal. */
  readonly description: string;
  /** Routing hints; any list may be missing, and null or absent means none. */
  readonly routing?: Partial<ToolRouting> | null;
}

/** How one message is routed. */
export interface ToolRouteOptions {
  /**
   * The most tools offered besides the always-included ones: a non-negative integer, or
   * `UNLIMITED` to offer every tool (see `resolveToolBudget`).
   */
  readonly budget: number;
  /** The turn's profile; on `minimal`, weakly matching tools are left out even when slots remain. */
  readonly profile: ToolProfile;
  /**
   * Names of tools offered on every turn, whatever the message says, on top of the budget.
   * Compared without regard to case; a name that matches no tool is skipped.
   */
  readonly alwaysInclude?: readonly string[];
}

/** The tools one message gets, and why. */
export interface ToolSelection<T extends RoutableTool = RoutableTool> {
  /** The tools to offer, always-included ones too, sorted by name. */
  readonly tools: readonly T[];
  /**
   * The names of the offered tools that are not always included, best first when the router
   * ranked, in registration order when it did not: the order to drop them in is from the end.
   */
  readonly ranking: readonly string[];
  /** Whether the router ranked; false when every tool was within the budget. */
  readonly ranked: boolean;
  /** The offered tools the message names, sorted by name; empty when the router did not rank. */
  readonly pinned: readonly string[];
  /** The always-included tools found among the tools, sorted by name. */
  readonly alwaysIncluded: readonly string[];
}

/**
 * How much a message word counts when it appears in each source of a tool's words; a word found
 * in several sources of one tool counts for each.
 */
export const ROUTING_SIGNAL_WEIGHTS = Object.freeze({
  intent: 16,
  domain: 8,
  tag: 4,
  example: 2,
  name: 1,
  description: 1,
} as const);

// Distinct words remembered across calls before the router forgets them and starts over.
const MAX_VOCABULARY = 1_000_000;
// On the minimal profile a tool scoring below this share of the best score is left out.
const MINIMAL_PROFILE_CUTOFF = 0.2;

function invalid(message: string): MilpaError {
  return new MilpaError(`ToolRouter: ${message}`, { code: 'INVALID_ARGUMENT' });
}

function byName(left: RoutableTool, right: RoutableTool): number {
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}

function checkOptions(options: ToolRouteOptions): void {
  if (typeof options !== 'object' || options === null) throw invalid('route() needs options { budget, profile }.');
  const { budget, profile, alwaysInclude } = options;
  if (budget !== UNLIMITED && (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 0)) {
    throw invalid(`budget must be a non-negative integer or UNLIMITED, got ${String(budget)}.`);
  }
  if (profile !== 'minimal' && profile !== 'standard' && profile !== 'full') {
    throw invalid(`profile must be 'minimal', 'standard' or 'full', got '${String(profile)}'.`);
  }
  if (alwaysInclude !== undefined && (!Array.isArray(alwaysInclude) || alwaysInclude.some((name) => typeof name !== 'string'))) {
    throw invalid('alwaysInclude must be an array of tool names.');
  }
}

function weighTool(tool: RoutableTool, idOf: (term: string) => number): WeighedTool {
  const weights = new Map<string, number>();
  const routing = tool.routing ?? null;
  const add = (texts: readonly string[] | undefined, weight: number): void => {
    const seen = new Set<string>();
    for (const text of Array.isArray(texts) ? texts : []) {
      // Hand-built tools skip defineTool's checks: a hint that is not text carries no words.
      if (typeof text !== 'string') continue;
      for (const term of routingTerms(text)) {
        if (seen.has(term)) continue;
        seen.add(term);
        weights.set(term, (weights.get(term) ?? 0) + weight);
      }
    }
  };
  add(routing?.intents, ROUTING_SIGNAL_WEIGHTS.intent);
  add(routing?.domains, ROUTING_SIGNAL_WEIGHTS.domain);
  add(routing?.tags, ROUTING_SIGNAL_WEIGHTS.tag);
  add(routing?.examples, ROUTING_SIGNAL_WEIGHTS.example);
  add([tool.name], ROUTING_SIGNAL_WEIGHTS.name);
  add(typeof tool.description === 'string' ? [tool.description] : [], ROUTING_SIGNAL_WEIGHTS.description);
  return {
    termIds: Int32Array.from(weights.keys(), idOf),
    weights: Float64Array.from(weights.values()),
    canonicalName: canonicalToolName(tool.name),
  };
}

/** The best `count` of `indexes` under `before`, best first, without sorting all of them. */
function selectBest(indexes: readonly number[], count: number, before: (left: number, right: number) => boolean): number[] {
  const best: number[] = [];
  if (count === 0) return best;
  for (const index of indexes) {
    if (best.length === count && !before(index, best[count - 1] as number)) continue;
    let low = 0;
    let high = best.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(best[middle] as number, index)) low = middle + 1;
      else high = middle;
    }
    best.splice(low, 0, index);
    if (best.length > count) best.pop();
  }
  return best;
}

/**
 * Picks the tools a model is offered for one message, so a turn does not spend its context on, or
 * confuse a small model with, tools the request has nothing to do with.
 *
 * When the tools, not counting always-included ones, fit the budget, every tool is offered and
 * nothing is ranked. Otherwise the tools the message names are pinned (`delete_note`, a partial
 * `delete_note` for `delete_notes`, or a class-style `DeleteNoteTool`), the rest are scored by
 * the message's words against each tool's intents (16), domains (8), tags (4), examples (2), name
 * (1) and description (1), and the budget is filled with pinned tools first, then the best scores,
 * ties broken by name. Words shorter than three characters and stop words are ignored, and words
 * compare by a singular (`editors` matches `editor`, `categories` matches `category`). With three
 * or more tools a word few tools carry counts more than one most carry, and a word repeated in the
 * message counts less each time, so a pasted document does not outrank the request around it. On
 * the `minimal` profile a tool scoring under 20 % of the best score is left out even when slots
 * remain. Always-included tools are added on top. The result is sorted by name, so the same
 * selection is byte-identical whatever the message.
 *
 * Words of frozen tools (such as registered definitions) are remembered per tool object, and a
 * list of frozen tools routed again (the same array, holding the same tools) is indexed once: the
 * tools carrying each word, their names and their order. A route over it then costs the message's
 * words and the tools they hit, not a pass over every tool, whatever the registry's size.
 *
 * @example
 * const router = new ToolRouter();
 * const { tools, ranking } = router.route(registry.getToolDefinitions(), 'delete my pinned notes', {
 *   budget: resolveToolBudget({ profile: 'full', model: 'gpt-4o-mini' }),
 *   profile: 'full',
 *   alwaysInclude: ['read_file'],
 * });
 */
export class ToolRouter {
  // Words are numbered once, so scoring a tool reads arrays instead of hashing its words again.
  #vocabulary = new Map<string, number>();
  #weighed = new WeakMap<object, WeighedTool>();
  // One index per tool list routed again (a registry hands out the same list while its tools and
  // the caller stay the same), so a route costs the message, not a pass over every tool.
  #indexes = new WeakMap<readonly RoutableTool[], ToolRouteIndex<RoutableTool>>();
  #weigher: ToolWeigher = {
    weigh: (tool) => this.#weigh(tool as RoutableTool),
    vocabulary: this.#vocabulary,
  };

  /**
   * Routes `message` over `tools` (in registration order).
   *
   * @throws MilpaError `INVALID_ARGUMENT` for a budget that is neither a non-negative integer nor
   *   `UNLIMITED`, an unknown profile, a non-string message, or two tools with one name.
   */
  route<T extends RoutableTool>(tools: readonly T[], message: string, options: ToolRouteOptions): ToolSelection<T> {
    checkOptions(options);
    // Tools that come and go with words of their own would grow the vocabulary forever: start over
    // when it gets large (between calls, so no id in use changes meaning).
    if (this.#vocabulary.size > MAX_VOCABULARY) {
      this.#vocabulary = new Map();
      this.#weighed = new WeakMap();
      this.#indexes = new WeakMap();
      this.#weigher = { weigh: this.#weigher.weigh, vocabulary: this.#vocabulary };
    }
    if (!Array.isArray(tools)) throw invalid('route() needs an array of tools.');
    if (typeof message !== 'string') throw invalid('the message must be a string.');
    const index = this.#indexOf(tools);
    const always = index.positionsNamed(new Set((options.alwaysInclude ?? []).map((name) => name.toLowerCase())));
    const alwaysIncluded = Object.freeze(always.map((position) => (tools[position] as T).name).sort());
    const isAlways = new Set(always);

    if (options.budget === UNLIMITED || tools.length - always.length <= options.budget) {
      return Object.freeze({
        tools: index.sortedTools(),
        ranking:
          always.length === 0
            ? index.registeredNames()
            : Object.freeze(index.registeredNames().filter((_, position) => !isAlways.has(position))),
        ranked: false,
        pinned: Object.freeze([]),
        alwaysIncluded,
      });
    }

    const { hits, isHit, scores } = index.score(countRoutingTerms(message), always, this.#weigher);
    // Marks, not sets: the loops below visit every hit, which can be every tool.
    const isPinned = new Uint8Array(tools.length);
    const named = index.namedBy(ToolNameMentions.fromMessage(message), this.#weigher).filter((position) => !isAlways.has(position));
    for (const position of named) isPinned[position] = 1;
    // Best first, ties on the name: a total order, so the result never depends on registration order.
    const ranks = index.nameRanks();
    const before =
      ranks === undefined
        ? (left: number, right: number): boolean =>
            (scores[left] as number) !== (scores[right] as number)
              ? (scores[left] as number) > (scores[right] as number)
              : (tools[left] as T).name < (tools[right] as T).name
        : (left: number, right: number): boolean =>
            (scores[left] as number) !== (scores[right] as number)
              ? (scores[left] as number) > (scores[right] as number)
              : (ranks[left] as number) < (ranks[right] as number);
    const pinned = named.sort((left, right) => (before(left, right) ? -1 : 1));
    // Only the best `slots` of the others can be offered. Every tool no word hit scores 0, so they
    // are needed only when fewer than `slots` others score above 0, and then only the first
    // `slots` of them by name: the others worth ranking are the hits and those.
    const slots = Math.max(0, options.budget - pinned.length);
    const hitOthers: number[] = [];
    let scoring = 0;
    for (const position of hits) {
      if (isPinned[position] === 1) continue;
      hitOthers.push(position);
      if ((scores[position] as number) > 0) scoring++;
    }
    const others =
      scoring >= slots
        ? hitOthers
        : [
            ...hitOthers,
            ...index.firstByName(slots, (position) => isHit[position] === 1 || isPinned[position] === 1 || isAlways.has(position)),
          ];
    let best = selectBest(others, slots, before);
    if (options.profile === 'minimal' && best.length > 0) {
      const floor = (scores[best[0] as number] as number) * MINIMAL_PROFILE_CUTOFF;
      best = best.filter((position) => (scores[position] as number) >= floor);
    }
    const chosen = [...pinned, ...best].slice(0, options.budget).map((position) => tools[position] as T);
    const chosenNames = new Set(chosen.map((tool) => tool.name));
    const pinnedNames = pinned.map((position) => (tools[position] as T).name);

    return Object.freeze({
      tools: Object.freeze([...chosen, ...always.map((position) => tools[position] as T)].sort(byName)),
      ranking: Object.freeze(chosen.map((tool) => tool.name)),
      ranked: true,
      pinned: Object.freeze(pinnedNames.filter((name) => chosenNames.has(name)).sort()),
      alwaysIncluded,
    });
  }

  /** The index of `tools`: the kept one while the list holds the same frozen tools, else a new one. */
  #indexOf<T extends RoutableTool>(tools: readonly T[]): ToolRouteIndex<T> {
    const kept = this.#indexes.get(tools) as ToolRouteIndex<T> | undefined;
    if (kept?.holds(tools)) return kept.use();
    const index = new ToolRouteIndex(tools).use();
    if (index.reusable) this.#indexes.set(tools, index);
    else this.#indexes.delete(tools);
    return index;
  }

  #weigh(tool: RoutableTool): WeighedTool {
    const cached = this.#weighed.get(tool);
    if (cached !== undefined) return cached;
    const weighed = weighTool(tool, (term) => {
      let id = this.#vocabulary.get(term);
      if (id === undefined) {
        id = this.#vocabulary.size;
        this.#vocabulary.set(term, id);
      }
      return id;
    });
    // Only a frozen tool cannot change under the cache.
    if (Object.isFrozen(tool)) this.#weighed.set(tool, weighed);
    return weighed;
  }
}
