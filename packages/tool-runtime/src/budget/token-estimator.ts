import { MilpaError, type ToolSummary } from '@milpa/core';
import { DEFAULT_MODEL_LIMIT, MODEL_LIMITS, RECOMMENDED_TOOL_BUDGET_PERCENT } from './model-limits.js';

/** Options of a {@link TokenEstimator}. */
export interface TokenEstimatorOptions {
  /** Extra or overriding context limits by model name or prefix, merged over {@link MODEL_LIMITS}. */
  readonly modelLimits?: Readonly<Record<string, number>>;
  /** The limit of a model matched by no key; default {@link DEFAULT_MODEL_LIMIT} (8192). */
  readonly defaultModelLimit?: number;
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

function invalid(message: string): MilpaError {
  return new MilpaError(`TokenEstimator: ${message}`, { code: 'INVALID_ARGUMENT' });
}

function checkLimit(label: string, limit: unknown): number {
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit <= 0) {
    throw invalid(`${label} must be a positive integer, got ${String(limit)}.`);
  }
  return limit;
}

/** UTF-8 length of `text` without encoding it (a lone surrogate counts as U+FFFD, 3 bytes). */
function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index++;
      } else {
        bytes += 3;
      }
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Estimates how many tokens tool definitions cost a model, at 4 UTF-8 bytes per token, and keeps a
 * tool list within 30 % of the model's context. An approximation: real tokenizers differ by model.
 *
 * @example
 * const estimator = new TokenEstimator();
 * estimator.getToolBudget('claude-opus'); // 60000
 * const { selected, excluded } = estimator.selectToolsWithinBudget(registry.getToolSummaries(), 'gpt-4o-2024-05-13');
 */
export class TokenEstimator {
  readonly #limits: ReadonlyMap<string, number>;
  // Keys longest first, so the first prefix that matches is the longest one: `gpt-4o-2024-05-13`
  // gets the budget of `gpt-4o`, not the much smaller one of `gpt-4`.
  readonly #prefixes: readonly string[];
  readonly #defaultLimit: number;

  /** @throws MilpaError `INVALID_ARGUMENT` when a limit is not a positive integer. */
  constructor(options: TokenEstimatorOptions = {}) {
    const limits = new Map<string, number>(Object.entries(MODEL_LIMITS));
    for (const [model, limit] of Object.entries(options.modelLimits ?? {})) {
      limits.set(model, checkLimit(`modelLimits['${model}']`, limit));
    }
    this.#limits = limits;
    this.#prefixes = [...limits.keys()].sort((left, right) => right.length - left.length);
    this.#defaultLimit =
      options.defaultModelLimit === undefined ? DEFAULT_MODEL_LIMIT : checkLimit('defaultModelLimit', options.defaultModelLimit);
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
   * costs more.
   * @throws MilpaError `INVALID_ARGUMENT` when `tool` is not a summary with a string name.
   */
  estimateToolTokens(tool: ToolSummary): number {
    if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string') {
      throw invalid('a tool must be a summary object with a string name.');
    }
    return this.estimateTokens(JSON.stringify(tool));
  }

  /** `{ total, per_tool }` for a list of summaries; `total` is always the sum of `per_tool`. */
  estimateToolsTokens(tools: readonly ToolSummary[]): ToolsTokenEstimate {
    const { total, perTool } = this.#estimateEach(tools);
    // fromEntries defines own properties, so a tool named `__proto__` is counted like any other.
    return { total, per_tool: Object.fromEntries(perTool) };
  }

  /**
   * The context limit of `model`: its exact key, else the longest listed prefix, else the default.
   * @throws MilpaError `INVALID_ARGUMENT` when `model` is not a string.
   */
  getModelLimit(model: string): number {
    if (typeof model !== 'string') throw invalid('a model name must be a string.');
    const exact = this.#limits.get(model);
    if (exact !== undefined) return exact;
    const prefix = this.#prefixes.find((candidate) => model.startsWith(candidate));
    return prefix === undefined ? this.#defaultLimit : (this.#limits.get(prefix) as number);
  }

  /** `floor(limit * 30 / 100)`: `gpt-3.5-turbo` → 1228, `claude-opus` → 60000. */
  getToolBudget(model: string): number {
    return Math.floor((this.getModelLimit(model) * RECOMMENDED_TOOL_BUDGET_PERCENT) / 100);
  }

  /** `{ fits, used, budget, percent, overflow, model_limit }` for `tools` on `model`. */
  checkToolBudget(tools: readonly ToolSummary[], model: string): ToolBudgetCheck {
    const used = this.estimateToolsTokens(tools).total;
    const budget = this.getToolBudget(model);
    const percent = budget > 0 ? (used / budget) * 100 : 100;
    return {
      fits: used <= budget,
      used,
      budget,
      percent: Math.round(percent * 100) / 100,
      overflow: Math.max(0, used - budget),
      model_limit: this.getModelLimit(model),
    };
  }

  /**
   * A greedy pass in list order (the order is the priority): a tool that fits is kept, one that does
   * not is excluded by name and the pass continues, so a later, smaller tool may still be kept.
   */
  selectToolsWithinBudget<T extends ToolSummary>(tools: readonly T[], model: string): ToolBudgetSelection<T> {
    if (!Array.isArray(tools)) throw invalid('tools must be an array of tool summaries.');
    const budget = this.getToolBudget(model);
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
  getUsageReport(tools: readonly ToolSummary[], model: string): string {
    const { perTool } = this.#estimateEach(tools);
    const check = this.checkToolBudget(tools, model);
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
    const largest = [...perTool]
      .sort(([, left], [, right]) => right - left)
      .slice(0, REPORT_TOP_TOOLS);
    for (const [name, tokens] of largest) lines.push(`  - ${name}: ${tokens} tokens`);
    return lines.join('\n');
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
