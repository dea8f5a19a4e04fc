import type { WeighedTool } from './tool-weigher.js';

/**
 * The words of every tool, laid out flat, with the tools carrying each word (an inverted index).
 * @internal
 */
export interface TermTables {
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
 * Lays out the word tables of `weighed` (the tools, in position order, numbered in a vocabulary of
 * `vocabularySize` words): each tool's words, and the tools carrying each word.
 * @internal
 */
export function buildTermTables(weighed: readonly WeighedTool[], vocabularySize: number): TermTables {
  const localOf = new Int32Array(vocabularySize).fill(-1);
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

  return {
    localOf,
    toolStart,
    toolTerms,
    toolWeights,
    postingStart,
    postings,
    factor: new Float64Array(words),
  };
}
