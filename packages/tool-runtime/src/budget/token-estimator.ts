import { MilpaError, silentLogger, type Logger, type ToolSummary } from '@milpa/core';
import { jsonStringByteLength, utf8ByteLength } from './json-byte-length.js';
import { DEFAULT_MODEL_LIMIT, MODEL_LIMITS, RECOMMENDED_TOOL_BUDGET_PERCENT } from './model-limits.js';
import { SchemaNameCache } from './schema-name-cache.js';

/** Options of a {@link TokenEstimator}. */
export interface TokenEstimatorOptions {
  /** Extra or overriding context limits by model id or prefix, merged over {@link MODEL_LIMITS}. */
  readonly modelLimits?: Readonly<Record<string, number>>;
  /** The limit of a model matched by no key; default {@link DEFAULT_MODEL_LIMIT} (128,000). */
  readonly defaultModelLimit?: number;
  /**
   * The context window of every model this estimator is asked about, in tokens; it wins over the
   * table (a per-call `contextWindow` wins over it). For a host that talks to one deployment.
   */
  readonly contextWindow?: number;
  /** Where the warning about an unknown model goes (pino or `console` both work). Default: silent. */
  readonly logger?: Logger;
}

/** Per-call options of the methods that look up a model's context window. */
export interface ModelLimitOptions {
  /** The model's context window in tokens; wins over the estimator's option and the table. */
  readonly contextWindow?: number;
}

/** Where a context window came from. */
export type ModelLimitSource = 'context-window' | 'table' | 'default';

/** How a model id resolved to a context window. */
export interface ModelLimitResolution {
  /** The context window in tokens. */
  readonly limit: number;
  /** `context-window` (an explicit option), `table` (a listed id or prefix) or `default` (unknown model). */
  readonly source: ModelLimitSource;
  /** The table key that matched (lower case), or null when the limit did not come from the table. */
  readonly match: string | null;
}

/** The estimate of a list of tools. */
export interface ToolsTokenEstimate {
  /** The sum of every tool's estimate. */
  readonly total: number;
  /** Each tool's estimate by name. */
  readonly per_tool: Readonly<Record<string, number>>;
}

/** Whether a list of tools fits a model's tool budget. */
export interface ToolBudgetCheck {
  /** `used <= budget`. */
  readonly fits: boolean;
  /** Estimated tokens of every tool. */
  readonly used: number;
  /** The model's tool budget. */
  readonly budget: number;
  /** `used / budget * 100`, rounded to two decimals (100 when the budget is 0). */
  readonly percent: number;
  /** `max(0, used - budget)`. */
  readonly overflow: number;
  /** The model's context limit. */
  readonly model_limit: number;
}

/** The tools kept by a greedy pass over a budget. */
export interface ToolBudgetSelection<T extends ToolSummary = ToolSummary> {
  /** The tools that fit, in list order. */
  readonly selected: readonly T[];
  /** Names of the tools that did not fit, in list order. */
  readonly excluded: readonly string[];
  /** Estimated tokens of the selected tools. */
  readonly tokens_used: number;
  /** The model's tool budget. */
  readonly budget: number;
}

const CHARS_PER_TOKEN = 4;
const REPORT_TOP_TOOLS = 10;
// Resolutions are remembered per model id; a host that passes ever-new ids cannot grow it without
// bound: when full it is emptied, so an unknown id is warned about again at most once per this many.
const MAX_RESOLVED_MODELS = 1024;
// A Bedrock-style id: an optional region group, then the vendor, then the model's own id.
const VENDOR_PREFIX = /^(?:[a-z]{2,4}\.)?(?:anthropic|meta|mistral|amazon|cohere|ai21|deepseek|qwen|openai|google)\.(.+)$/;
const ID_CHARACTER = /[a-z0-9]/;

/** A tool's estimate and the top-level fields it was computed from, to notice a changed field. */
interface CachedEstimate {
  readonly tokens: number;
  readonly keys: readonly string[];
  readonly values: readonly unknown[];
}

function invalid(message: string): MilpaError {
  return new MilpaError(`TokenEstimator: ${message}`, { code: 'INVALID_ARGUMENT' });
}

function checkLimit(label: string, limit: unknown): number {
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit <= 0) {
    throw invalid(`${label} must be a positive integer, got ${String(limit)}.`);
  }
  return limit;
}

/** The ids to try for `model`: itself, without a provider path, without a Bedrock vendor prefix. */
function idCandidates(model: string): string[] {
  const lower = model.toLowerCase();
  const candidates = [lower];
  const tail = lower.slice(lower.lastIndexOf('/') + 1);
  if (tail !== lower) candidates.push(tail);
  const vendor = VENDOR_PREFIX.exec(tail);
  if (vendor?.[1] !== undefined) candidates.push(vendor[1]);
  return candidates;
}

// A key matches the whole id or a prefix followed by a separator, never half of a word: `gpt-4`
// covers `gpt-4-0613` but not `gpt-4o`, and `o3` covers `o3-pro` but not `o3x`.
function isPrefixOf(key: string, id: string): boolean {
  if (!id.startsWith(key)) return false;
  const next = id.charAt(key.length);
  return next === '' || !ID_CHARACTER.test(next);
}

/**
 * Estimates how many tokens tool definitions cost a model, at 4 UTF-8 bytes per token, and keeps a
 * tool list within 30 % of the model's context. An approximation: real tokenizers differ by model.
 *
 * Context windows come from {@link MODEL_LIMITS} (longest matching prefix), unless a
 * `contextWindow` is given; an unknown model gets {@link DEFAULT_MODEL_LIMIT} and a warning, once
 * per model id, through the `logger`. Estimates are remembered per tool (by input schema object and
 * name), so estimating the same 10,000 tools on every turn serializes each schema once, even from
 * fresh summaries; treat a schema as immutable once estimated (the registry's definitions are frozen).
 *
 * @example
 * const estimator = new TokenEstimator({ logger: console });
 * estimator.getModelLimit('gpt-4o-mini-2024-07-18'); // 128000
 * estimator.getToolBudget('claude-sonnet-4-20250514'); // 60000
 * estimator.getToolBudget('my-finetune', { contextWindow: 32000 }); // 9600
 * const { selected, excluded } = estimator.selectToolsWithinBudget(registry.getToolSummaries(), 'gpt-4.1');
 */
export class TokenEstimator {
  readonly #limits: ReadonlyMap<string, number>;
  // Keys longest first, so the first prefix that matches is the longest one: `gpt-4o-2024-05-13`
  // gets the window of `gpt-4o`, not the much smaller one of `gpt-4`.
  readonly #prefixes: readonly string[];
  readonly #defaultLimit: number;
  readonly #contextWindow: number | null;
  readonly #logger: Logger;
  readonly #resolved = new Map<string, ModelLimitResolution>();
  // Keyed by the tool's input schema object (the tool itself when it has none) and name: a fresh
  // summary of a known tool, as getToolSummaries() builds on every turn, adds no entry.
  readonly #toolEstimates = new SchemaNameCache<CachedEstimate>();
  readonly #valueBytes = new WeakMap<object, number>();

  /** @throws MilpaError `INVALID_ARGUMENT` when a limit or the context window is not a positive integer. */
  constructor(options: TokenEstimatorOptions = {}) {
    const limits = new Map<string, number>(Object.entries(MODEL_LIMITS));
    for (const [model, limit] of Object.entries(options.modelLimits ?? {})) {
      limits.set(model.toLowerCase(), checkLimit(`modelLimits['${model}']`, limit));
    }
    this.#limits = limits;
    this.#prefixes = [...limits.keys()].sort((left, right) => right.length - left.length);
    this.#defaultLimit =
      options.defaultModelLimit === undefined ? DEFAULT_MODEL_LIMIT : checkLimit('defaultModelLimit', options.defaultModelLimit);
    this.#contextWindow = options.contextWindow === undefined ? null : checkLimit('contextWindow', options.contextWindow);
    this.#logger = options.logger ?? silentLogger;
  }

  /**
   * `ceil(UTF-8 bytes / 4)`: `''` → 0, `'abc'` → 1, `'abcde'` → 2.
   * @throws MilpaError `INVALID_ARGUMENT` when `text` is not a string.
   */
  estimateTokens(text: string): number {
    if (typeof text !== 'string') throw invalid('estimateTokens() needs a string.');
    return Math.ceil(utf8ByteLength(text) / CHARS_PER_TOKEN);
  }

  /**
   * The estimate of one tool's whole wire summary as JSON, schema included, so a richer schema
   * costs more. Remembered per input schema object and name, and recomputed when a top-level field
   * differs, so a fresh summary of a known tool costs a lookup, and each schema object is
   * serialized once.
   * @throws MilpaError `INVALID_ARGUMENT` when `tool` is not a summary with a string name.
   */
  estimateToolTokens(tool: ToolSummary): number {
    if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string') {
      throw invalid('a tool must be a summary object with a string name.');
    }
    const fields = tool as unknown as Readonly<Record<string, unknown>>;
    const keys = Object.keys(fields);
    const schema = fields['inputSchema'];
    const anchor: object = typeof schema === 'object' && schema !== null ? schema : tool;
    const cached = this.#toolEstimates.get(anchor, tool.name);
    if (cached !== undefined && sameFields(cached, keys, fields)) return cached.tokens;
    const tokens = Math.ceil(this.#summaryBytes(fields, keys) / CHARS_PER_TOKEN);
    this.#toolEstimates.set(anchor, tool.name, { tokens, keys, values: keys.map((key) => fields[key]) });
    return tokens;
  }

  /** `{ total, per_tool }` for a list of summaries; `total` is always the sum of `per_tool`. */
  estimateToolsTokens(tools: readonly ToolSummary[]): ToolsTokenEstimate {
    const { total, perTool } = this.#estimateEach(tools);
    // fromEntries defines own properties, so a tool named `__proto__` is counted like any other.
    return { total, per_tool: Object.fromEntries(perTool) };
  }

  /**
   * How `model` resolves: a `contextWindow` (per call, then the estimator's) wins; else its
   * longest matching table key, ignoring case, a provider path (`openai/gpt-4o`) and a Bedrock
   * vendor prefix; else the default, logged as a warning once per model id.
   * @throws MilpaError `INVALID_ARGUMENT` when `model` is not a string or `contextWindow` is not a positive integer.
   */
  resolveModelLimit(model: string, options: ModelLimitOptions = {}): ModelLimitResolution {
    if (typeof model !== 'string') throw invalid('a model name must be a string.');
    if (options.contextWindow !== undefined) {
      return { limit: checkLimit('contextWindow', options.contextWindow), source: 'context-window', match: null };
    }
    if (this.#contextWindow !== null) return { limit: this.#contextWindow, source: 'context-window', match: null };
    const known = this.#resolved.get(model);
    if (known !== undefined) return known;
    const resolution = this.#lookUp(model);
    if (this.#resolved.size >= MAX_RESOLVED_MODELS) this.#resolved.clear();
    this.#resolved.set(model, resolution);
    if (resolution.source === 'default') {
      this.#logger.warn(
        { model, context_window: resolution.limit },
        `[TokenEstimator] Unknown model ${JSON.stringify(model)}: assuming a ${resolution.limit}-token context window. Pass ` +
          `contextWindow to state the real one.`,
      );
    }
    return resolution;
  }

  /**
   * The context window of `model` in tokens (see {@link TokenEstimator.resolveModelLimit}):
   * `gpt-4.1` → 1047576, `claude-sonnet-4-20250514` → 200000.
   * @throws MilpaError `INVALID_ARGUMENT` when `model` is not a string.
   */
  getModelLimit(model: string, options: ModelLimitOptions = {}): number {
    return this.resolveModelLimit(model, options).limit;
  }

  /** `floor(limit * 30 / 100)`: `gpt-4` → 2457, `claude-opus-4` → 60000. */
  getToolBudget(model: string, options: ModelLimitOptions = {}): number {
    return Math.floor((this.getModelLimit(model, options) * RECOMMENDED_TOOL_BUDGET_PERCENT) / 100);
  }

  /** `{ fits, used, budget, percent, overflow, model_limit }` for `tools` on `model`. */
  checkToolBudget(tools: readonly ToolSummary[], model: string, options: ModelLimitOptions = {}): ToolBudgetCheck {
    const used = this.estimateToolsTokens(tools).total;
    const limit = this.getModelLimit(model, options);
    const budget = Math.floor((limit * RECOMMENDED_TOOL_BUDGET_PERCENT) / 100);
    const percent = budget > 0 ? (used / budget) * 100 : 100;
    return {
      fits: used <= budget,
      used,
      budget,
      percent: Math.round(percent * 100) / 100,
      overflow: Math.max(0, used - budget),
      model_limit: limit,
    };
  }

  /**
   * A greedy pass in list order (the order is the priority): a tool that fits is kept, one that does
   * not is excluded by name and the pass continues, so a later, smaller tool may still be kept.
   */
  selectToolsWithinBudget<T extends ToolSummary>(
    tools: readonly T[],
    model: string,
    options: ModelLimitOptions = {},
  ): ToolBudgetSelection<T> {
    if (!Array.isArray(tools)) throw invalid('tools must be an array of tool summaries.');
    const budget = this.getToolBudget(model, options);
    const selected: T[] = [];
    const excluded: string[] = [];
    let used = 0;
    for (const tool of tools) {
      const tokens = this.estimateToolTokens(tool);
      if (used + tokens <= budget) {
        selected.push(tool);
        used += tokens;
      } else {
        excluded.push(tool.name);
      }
    }
    return { selected, excluded, tokens_used: used, budget };
  }

  /** A text report: model, limit, budget, usage, the verdict and the ten most expensive tools. */
  getUsageReport(tools: readonly ToolSummary[], model: string, options: ModelLimitOptions = {}): string {
    const { perTool } = this.#estimateEach(tools);
    const check = this.checkToolBudget(tools, model, options);
    const lines = [
      '=== Token Usage Report ===',
      `Model: ${model}`,
      `Context Limit: ${check.model_limit} tokens`,
      `Tool Budget (${RECOMMENDED_TOOL_BUDGET_PERCENT}%): ${check.budget} tokens`,
      '',
      `Tools Registered: ${tools.length}`,
      `Tokens Used: ${check.used} tokens`,
      `Budget Usage: ${check.percent}%`,
      '',
      `Status: ${check.fits ? '✅ Within budget' : `⚠️ OVER BUDGET by ${check.overflow} tokens`}`,
      '',
      `Top ${REPORT_TOP_TOOLS} Tools by Token Usage:`,
    ];
    // Array#sort is stable, so equal costs keep list order.
    const largest = [...perTool].sort(([, left], [, right]) => right - left).slice(0, REPORT_TOP_TOOLS);
    for (const [name, tokens] of largest) lines.push(`  - ${name}: ${tokens} tokens`);
    return lines.join('\n');
  }

  #lookUp(model: string): ModelLimitResolution {
    let match: string | undefined;
    for (const candidate of idCandidates(model)) {
      const found = this.#prefixes.find((key) => isPrefixOf(key, candidate));
      if (found !== undefined && (match === undefined || found.length > match.length)) match = found;
    }
    if (match === undefined) return { limit: this.#defaultLimit, source: 'default', match: null };
    return { limit: this.#limits.get(match) as number, source: 'table', match };
  }

  // The UTF-8 length of JSON.stringify(summary), built from its fields so that a nested object
  // (the schema) is serialized once per object, however many summaries wrap it.
  #summaryBytes(fields: Readonly<Record<string, unknown>>, keys: readonly string[]): number {
    if (typeof fields['toJSON'] === 'function') return utf8ByteLength(JSON.stringify(fields));
    let bytes = 2;
    let written = 0;
    for (const key of keys) {
      const valueBytes = this.#jsonValueBytes(fields[key]);
      if (valueBytes === null) continue;
      bytes += (written > 0 ? 1 : 0) + jsonStringByteLength(key) + 1 + valueBytes;
      written += 1;
    }
    return bytes;
  }

  // null where JSON.stringify leaves the field out (undefined, a function, a symbol).
  #jsonValueBytes(value: unknown): number | null {
    switch (typeof value) {
      case 'string':
        return jsonStringByteLength(value);
      case 'boolean':
        return value ? 4 : 5;
      case 'number':
        return Number.isFinite(value) ? String(value).length : 4;
      case 'object': {
        if (value === null) return 4;
        const known = this.#valueBytes.get(value);
        if (known !== undefined) return known;
        const json = JSON.stringify(value) as string | undefined;
        const bytes = json === undefined ? null : utf8ByteLength(json);
        if (bytes !== null) this.#valueBytes.set(value, bytes);
        return bytes;
      }
      case 'bigint':
        // Throws the TypeError JSON.stringify throws for a bigint.
        return utf8ByteLength(JSON.stringify(value));
      default:
        return null;
    }
  }

  // A Map keeps list order even for names like '42' that a plain object would move to the front.
  #estimateEach(tools: readonly ToolSummary[]): { total: number; perTool: Map<string, number> } {
    if (!Array.isArray(tools)) throw invalid('tools must be an array of tool summaries.');
    const perTool = new Map<string, number>();
    let total = 0;
    for (const tool of tools) {
      const tokens = this.estimateToolTokens(tool);
      // Summed rather than overwritten, so a repeated name cannot make total disagree with per_tool.
      perTool.set(tool.name, (perTool.get(tool.name) ?? 0) + tokens);
      total += tokens;
    }
    return { total, perTool };
  }
}

function sameFields(cached: CachedEstimate, keys: readonly string[], fields: Readonly<Record<string, unknown>>): boolean {
  if (cached.keys.length !== keys.length) return false;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    if (cached.keys[index] !== key || !Object.is(cached.values[index], fields[key])) return false;
  }
  return true;
}
