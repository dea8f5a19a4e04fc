/**
 * The reference implementation of `ToolRouter.route()`, kept for the equivalence test only: a copy
 * of the router as it was before routing used a per-array inverted index (it scores every tool on
 * every call). `test/properties/tool-router-equivalence.test.ts` checks that `ToolRouter` gives byte-identical
 * selections. Not exported from the package index; do not use it outside tests.
 */
import { MilpaError } from '@milpa/core';
import { UNLIMITED } from '../../src/routing/model-tool-budget.js';
import { countRoutingTerms, routingTerms } from '../../src/routing/routing-terms.js';
import { ToolNameMentions, canonicalToolName } from '../../src/routing/tool-name-mentions.js';
import type { RoutableTool, ToolRouteOptions, ToolSelection } from '../../src/routing/tool-router.js';

/**
 * How much a message word counts when it appears in each source of a tool's words; a word found
 * in several sources of one tool counts for each.
 */
const ROUTING_SIGNAL_WEIGHTS = Object.freeze({
  intent: 16,
  domain: 8,
  tag: 4,
  example: 2,
  name: 1,
  description: 1,
} as const);

// Distinct words remembered across calls before the router forgets them and starts over.
const MAX_VOCABULARY = 1_000_000;
// Rarity weighting needs enough tools to tell a rare word from a common one.
const RARITY_MIN_TOOLS = 3;
// On the minimal profile a tool scoring below this share of the best score is left out.
const MINIMAL_PROFILE_CUTOFF = 0.2;
// Scores are rounded so that equal matches summed in a different order still tie (and then break
// on the name) instead of differing in the last bit of a float.
const SCORE_PRECISION = 1e9;

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

/**
 * A tool's words, as ids in the router's vocabulary, with the summed weight of the sources each
 * appears in, and its canonical name for pinning.
 */
interface WeighedTool {
  readonly termIds: Int32Array;
  readonly weights: Float64Array;
  readonly canonicalName: string;
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

/**
 * Each tool's score for the message, by index. `vocabulary` holds every word of `weighed`; a
 * message word outside it matches no tool.
 */
function scoreTools(weighed: readonly WeighedTool[], message: string, vocabulary: ReadonlyMap<string, number>): Float64Array {
  const counts = new Map<number, number>();
  for (const [term, count] of countRoutingTerms(message)) {
    const id = vocabulary.get(term);
    if (id !== undefined) counts.set(id, count);
  }

  // factor[id] is what one weight point of word `id` is worth for this message: 0 for a word the
  // message lacks. A word said n times counts 1/√n: the words a pasted document repeats are its
  // topic, while the request around it is usually said once, and must not be outranked by it.
  const factor = new Float64Array(vocabulary.size);
  for (const [id, count] of counts) factor[id] = 1 / Math.sqrt(count);

  if (weighed.length >= RARITY_MIN_TOOLS) {
    const carriers = new Int32Array(vocabulary.size);
    for (const { termIds } of weighed) {
      for (let at = 0; at < termIds.length; at++) {
        const id = termIds[at] as number;
        if ((factor[id] as number) !== 0) (carriers[id] as number)++;
      }
    }
    // A word only one tool carries counts 1 + ln(n) times; one every tool carries, once.
    for (const id of counts.keys()) {
      const carried = carriers[id] as number;
      if (carried > 0) (factor[id] as number) *= 1 + Math.log(weighed.length / carried);
    }
  }

  const scores = new Float64Array(weighed.length);
  for (let index = 0; index < weighed.length; index++) {
    const { termIds, weights } = weighed[index] as WeighedTool;
    let score = 0;
    for (let at = 0; at < termIds.length; at++) score += (weights[at] as number) * (factor[termIds[at] as number] as number);
    scores[index] = Math.round(score * SCORE_PRECISION) / SCORE_PRECISION;
  }
  return scores;
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

/** The reference router: `ToolRouter` as it was, scoring every tool on every call. */
export class ToolRouterOracle {
  // Words are numbered once, so scoring a tool reads arrays instead of hashing its words again.
  #vocabulary = new Map<string, number>();
  #weighed = new WeakMap<object, WeighedTool>();

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
    }
    if (!Array.isArray(tools)) throw invalid('route() needs an array of tools.');
    if (typeof message !== 'string') throw invalid('the message must be a string.');
    const wanted = new Set((options.alwaysInclude ?? []).map((name) => name.toLowerCase()));
    const names = new Set<string>();
    const always: T[] = [];
    const candidates: T[] = [];
    for (const tool of tools) {
      if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string') {
        throw invalid('every tool needs a string name.');
      }
      if (names.has(tool.name)) throw invalid(`tool names must be unique; '${tool.name}' appears twice.`);
      names.add(tool.name);
      (wanted.size > 0 && wanted.has(tool.name.toLowerCase()) ? always : candidates).push(tool);
    }
    const alwaysIncluded = Object.freeze(always.map((tool) => tool.name).sort());

    if (options.budget === UNLIMITED || candidates.length <= options.budget) {
      return Object.freeze({
        tools: Object.freeze([...tools].sort(byName)),
        ranking: Object.freeze(candidates.map((tool) => tool.name)),
        ranked: false,
        pinned: Object.freeze([]),
        alwaysIncluded,
      });
    }

    const weighed = candidates.map((tool) => this.#weigh(tool));
    const scores = scoreTools(weighed, message, this.#vocabulary);
    const mentions = ToolNameMentions.fromMessage(message);
    // Best first, ties on the name: a total order, so the result never depends on registration order.
    const before = (left: number, right: number): boolean =>
      (scores[left] as number) !== (scores[right] as number)
        ? (scores[left] as number) > (scores[right] as number)
        : (candidates[left] as T).name < (candidates[right] as T).name;
    const pinned: number[] = [];
    const others: number[] = [];
    weighed.forEach((tool, index) => {
      (mentions.namesCanonical(tool.canonicalName) ? pinned : others).push(index);
    });
    pinned.sort((left, right) => (before(left, right) ? -1 : 1));
    // Only the best `slots` of the others can be offered: keep those, not a sort of every tool.
    const slots = Math.max(0, options.budget - pinned.length);
    let best = selectBest(others, slots, before);
    if (options.profile === 'minimal' && best.length > 0) {
      const floor = (scores[best[0] as number] as number) * MINIMAL_PROFILE_CUTOFF;
      best = best.filter((index) => (scores[index] as number) >= floor);
    }
    const chosen = [...pinned, ...best].slice(0, options.budget).map((index) => candidates[index] as T);
    const chosenNames = new Set(chosen.map((tool) => tool.name));
    const pinnedNames = pinned.map((index) => (candidates[index] as T).name);

    return Object.freeze({
      tools: Object.freeze([...chosen, ...always].sort(byName)),
      ranking: Object.freeze(chosen.map((tool) => tool.name)),
      ranked: true,
      pinned: Object.freeze(pinnedNames.filter((name) => chosenNames.has(name)).sort()),
      alwaysIncluded,
    });
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
