import { MilpaError, type AnyToolDefinition, type ToolContext, type ToolSummary } from '@milpa/core';
import type { TokenEstimator } from '../budget/token-estimator.js';
import { fitTokenBudget } from '../routing/fit-token-budget.js';
import { resolveToolBudget } from '../routing/model-tool-budget.js';
import { ProviderToolShapes, type ProviderName, type ProviderToolFor } from '../routing/provider-shapes.js';
import { ToolRouter } from '../routing/tool-router.js';
import { profileDescriptionStyle, profileTokenBudget, resolveToolProfile, type ToolProfile } from '../routing/tool-profile.js';
import type { CatalogLog, ToolCatalog } from './tool-catalog.js';
import { summarizeTool } from './tool-listing.js';
import type { ToolsWithinBudget } from './tool-registry-options.js';

/** Options of `registry.toolsFor(context, options)`: who the tools are for and which model sees them. */
export interface ToolsForOptions<P extends ProviderName = ProviderName> {
  /**
   * The provider, which picks the shape (`openai`, `groq`, `gemini`, `mistral`, `ollama`,
   * `deepseek`, `custom`: function tools; `mcp`: MCP tools; anything else: Anthropic-style tools)
   * and, with the model, the profile (ollama and groq get the small profiles).
   */
  readonly provider: P;
  /** The model id, which sets the per-turn tool budget (`gpt-4o-mini` → 8, `claude-sonnet-4` → 12, …). */
  readonly model: string;
  /** The user's message this turn: the router pins tools it names and ranks the rest by it. */
  readonly message?: string;
  /** The system prompt, counted against the profile's token budget. */
  readonly systemPrompt?: string;
  /** The conversation so far (the current message included), counted against the token budget. */
  readonly history?: readonly string[];
  /** Tools offered on every turn, on top of the budget (case-insensitive; unknown names skipped). */
  readonly alwaysInclude?: readonly string[];
  /** The per-turn tool budget, overriding the model's (`UNLIMITED` offers every tool). */
  readonly maxTools?: number;
}

/** What `registry.toolsFor()` answers. */
export interface ToolsForResult<P extends ProviderName = ProviderName> {
  /** The tools to send, in the provider's shape, sorted by name. */
  readonly tools: readonly ProviderToolFor<P>[];
  /** Their names, sorted. */
  readonly names: readonly string[];
  /** The profile the provider and model map to. */
  readonly profile: ToolProfile;
  /** The per-turn tool budget applied (−1: unlimited). */
  readonly budget: number;
  /** Whether the router ranked the tools this turn (false when they were within budget). */
  readonly ranked: boolean;
  /** The tools the message named, kept whatever their rank. */
  readonly pinned: readonly string[];
  /** Tools the caller may call that were left out: by the router's budget, then by the token budget. */
  readonly excluded: readonly string[];
  /** The request's estimated tokens (system prompt, history and the tools sent). */
  readonly estimatedTokens: number;
}

function invalid(message: string): MilpaError {
  return new MilpaError(`toolsFor: ${message}`, { code: 'INVALID_ARGUMENT' });
}

function checkOptions(options: ToolsForOptions): void {
  if (typeof options !== 'object' || options === null) throw invalid('options must be { provider, model, … }.');
  if (typeof options.provider !== 'string' || options.provider === '') throw invalid('provider must be a non-empty string.');
  if (typeof options.model !== 'string' || options.model === '') throw invalid('model must be a non-empty string.');
  if (options.message !== undefined && typeof options.message !== 'string') throw invalid('message must be a string.');
  if (options.systemPrompt !== undefined && typeof options.systemPrompt !== 'string') throw invalid('systemPrompt must be a string.');
  if (options.history !== undefined && (!Array.isArray(options.history) || options.history.some((entry) => typeof entry !== 'string'))) {
    throw invalid('history must be an array of strings.');
  }
  if (options.maxTools !== undefined && (typeof options.maxTools !== 'number' || !Number.isInteger(options.maxTools))) {
    throw invalid('maxTools must be a whole number (or UNLIMITED).');
  }
}

/** What `TurnTools` is built from. */
export interface TurnToolsInit {
  /** The registered tools, and which of them a caller may call. */
  readonly catalog: ToolCatalog;
  /** Estimates tokens against each model's context. */
  readonly estimator: TokenEstimator;
  /** Where budget warnings go. */
  readonly log: CatalogLog;
}

/**
 * What a model is offered: one turn's tool list from the tools a caller may call (the profile and
 * budget from the provider and model, the router over the message, the token-budget fit, then the
 * provider's shape), and the token budgets of the tool list. Shapes and their token estimates are
 * cached per tool, so a turn over many tools costs a routing pass, not a serialization per tool.
 * @internal
 */
export class TurnTools {
  readonly #router = new ToolRouter();
  readonly #shapes = new ProviderToolShapes();
  /** Estimated tokens of each shaped tool object (four characters per token). */
  readonly #tokens = new WeakMap<object, number>();
  readonly #catalog: ToolCatalog;
  readonly #estimator: TokenEstimator;
  readonly #log: CatalogLog;

  constructor(init: TurnToolsInit) {
    this.#catalog = init.catalog;
    this.#estimator = init.estimator;
    this.#log = init.log;
  }

  /** The estimator used for budgets. */
  get estimator(): TokenEstimator {
    return this.#estimator;
  }

  /** The tools to send a model this turn, for this caller, in the provider's shape. */
  async toolsFor<P extends ProviderName>(context: ToolContext, options: ToolsForOptions<P>): Promise<ToolsForResult<P>> {
    const allowed = await this.#catalog.listToolsFor(context);
    return this.build(allowed, options);
  }

  /** The summaries that fit 30 % of `model`'s context, `priorityTools` first; over the tools `context` may call when given. */
  withinBudget(model: string, priorityTools: readonly string[], context?: ToolContext): ToolsWithinBudget | Promise<ToolsWithinBudget> {
    if (context !== undefined)
      return this.#catalog
        .listToolsFor(context)
        .then((definitions) => this.#withinBudget(definitions.map(summarizeTool), model, priorityTools));
    return this.#withinBudget(this.#catalog.getToolSummaries(), model, priorityTools);
  }

  #withinBudget(summaries: readonly ToolSummary[], model: string, priorityTools: readonly string[]): ToolsWithinBudget {
    const priority = priorityTools
      .map((name) => summaries.find((summary) => summary.name === name))
      .filter((summary): summary is ToolSummary => summary !== undefined);
    const ordered = [...priority, ...summaries.filter((summary) => !priority.includes(summary))];
    const selection = this.#estimator.selectToolsWithinBudget(ordered, model);
    if (selection.excluded.length > 0) {
      const shown = selection.excluded.slice(0, 5).join(', ');
      const more = selection.excluded.length > 5 ? '...' : '';
      this.#log.safeLog(
        'warn',
        { excluded_count: selection.excluded.length, model },
        `[ToolRegistry] Token budget exceeded. Excluded ${selection.excluded.length} tools: ${shown}${more}`,
      );
    }
    return {
      tools: selection.selected,
      excluded: selection.excluded,
      tokens_used: selection.tokens_used,
      budget: selection.budget,
    };
  }

  /** A text report of the tools' token usage against `model`'s budget. */
  usageReport(model: string): string {
    return this.#estimator.getUsageReport(this.#catalog.getToolSummaries(), model);
  }

  /** The estimated tokens of every tool summary: `{ total, per_tool }`. */
  estimateTokens(): ReturnType<TokenEstimator['estimateToolsTokens']> {
    return this.#estimator.estimateToolsTokens(this.#catalog.getToolSummaries());
  }

  /** Whether the tool list fits `model`'s tool budget. */
  checkTokenBudget(model: string): ReturnType<TokenEstimator['checkToolBudget']> {
    return this.#estimator.checkToolBudget(this.#catalog.getToolSummaries(), model);
  }

  /** The turn's tools for `allowed` (the caller's callable tools, in registration order). */
  build<P extends ProviderName>(allowed: readonly AnyToolDefinition[], options: ToolsForOptions<P>): ToolsForResult<P> {
    checkOptions(options);
    const profile = resolveToolProfile(options.provider, options.model);
    const budget = resolveToolBudget({
      ...(options.maxTools === undefined ? {} : { explicit: options.maxTools }),
      profile,
      model: options.model,
    });
    const selection = this.#router.route(allowed, options.message ?? '', {
      budget,
      profile,
      ...(options.alwaysInclude === undefined ? {} : { alwaysInclude: options.alwaysInclude }),
    });
    const descriptions = profileDescriptionStyle(profile);
    const byName = new Map(selection.tools.map((definition) => [definition.name, definition] as const));
    const shaped = new Map<string, ProviderToolFor<P>>();
    const sized = (name: string): { name: string; tokens: number } => {
      const definition = byName.get(name) as AnyToolDefinition;
      const tool = this.#shapes.toTool(definition, options.provider, { descriptions });
      shaped.set(name, tool);
      let tokens = this.#tokens.get(tool as object);
      if (tokens === undefined) {
        tokens = Math.ceil(JSON.stringify(tool).length / 4);
        this.#tokens.set(tool as object, tokens);
      }
      return { name, tokens };
    };
    // Keep order: ranked (or registration) order for routed tools; always-included ones anywhere.
    const order = [...selection.ranking, ...selection.alwaysIncluded.filter((name) => !selection.ranking.includes(name))];
    const fit = fitTokenBudget({
      tools: order.map(sized),
      alwaysIncluded: selection.alwaysIncluded,
      systemPromptLength: options.systemPrompt?.length ?? 0,
      historyLength: (options.history ?? []).reduce((sum, entry) => sum + entry.length, 0),
      tokenBudget: profileTokenBudget(profile),
    });
    const names = fit.tools.map((tool) => tool.name).sort();
    const kept = new Set(names);
    const routedOut = allowed.filter((definition) => !byName.has(definition.name)).map((definition) => definition.name);
    return Object.freeze({
      tools: Object.freeze(names.map((name) => shaped.get(name) as ProviderToolFor<P>)),
      names: Object.freeze(names),
      profile,
      budget,
      ranked: selection.ranked,
      pinned: Object.freeze(selection.pinned.filter((name) => kept.has(name))),
      excluded: Object.freeze([...routedOut, ...fit.dropped]),
      estimatedTokens: fit.estimatedTokens,
    });
  }
}
