/**
 * What the route index needs of a tool (`RoutableTool`, without importing the router).
 * @internal
 */
export interface NamedTool {
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
