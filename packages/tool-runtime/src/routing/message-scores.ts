import type { TermTables } from './term-tables.js';
import type { WeighedTool } from './tool-weigher.js';

/**
 * One message's scores over a route index's tools.
 * @internal
 */
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

/**
 * A message's scores from the word tables of `toolCount` tools: only the tools carrying a word of
 * the message are visited.
 * @internal
 */
export function scoreWithTermTables(
  tables: TermTables,
  toolCount: number,
  counts: ReadonlyMap<string, number>,
  always: readonly number[],
  vocabulary: ReadonlyMap<string, number>,
): MessageScores {
  const { localOf, postingStart, postings, toolStart, toolTerms, toolWeights, factor } = tables;

  const words: number[] = [];
  for (const [term, count] of counts) {
    const id = vocabulary.get(term);
    const word = id === undefined || id >= localOf.length ? -1 : (localOf[id] as number);
    if (word < 0) continue;
    words.push(word);
    factor[word] = repeatFactor(count);
  }

  const candidates = toolCount - always.length;
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

  const isHit = new Uint8Array(toolCount);
  // Always-included tools are neither hits nor scored: unmarked after the walk.
  markCarriers(words, postingStart, postings, isHit);
  for (const position of always) isHit[position] = 0;
  const scores = new Float64Array(toolCount);
  const hits = sumScores(isHit, toolStart, toolTerms, toolWeights, factor, scores);
  for (const word of words) factor[word] = 0;
  return { hits, isHit, scores };
}

/**
 * A message's scores tool by tool, in the router's vocabulary, without word tables.
 * @internal
 */
export function scoreToolByTool(
  weighed: readonly WeighedTool[],
  counts: ReadonlyMap<string, number>,
  always: readonly number[],
  vocabulary: ReadonlyMap<string, number>,
): MessageScores {
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
