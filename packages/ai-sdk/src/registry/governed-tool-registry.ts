import type { AnyToolDefinition, ToolContext, ToolRegistry, ToolResult } from '@milpa/core';

/** What the adapter passes with every call: the framework's abort signal. */
export interface GovernedCallOptions {
  /** Aborted when the agent run is aborted; the tool's handler receives it through its own signal. */
  readonly signal?: AbortSignal;
}

/** One step of a registry's invocation plan, as far as the adapter reads it. */
export interface GovernedPlanStep {
  /** The step's kind, e.g. `confirm` or `approve`. */
  readonly kind: string;
  /** Whether the step runs for this tool and caller: `active`, `conditional`, `dormant` or `skipped`. */
  readonly presence: string;
}

/** The part of a registry's tool list for one turn that the adapter reads. */
export interface GovernedTurnTools {
  /** The names of the tools to offer this turn. */
  readonly names: readonly string[];
}

/** What the adapter asks of a registry when it narrows the tool list to a model's per-turn budget. */
export interface GovernedTurnOptions {
  /** The provider, which picks the tool profile (`openai`, `anthropic`, `ollama`, …). */
  readonly provider: string;
  /** The model id, which sets the per-turn tool budget. */
  readonly model: string;
  /** The user's message this turn: tools it names are pinned, the rest ranked by it. */
  readonly message?: string;
  /** Tools offered on every turn, on top of the budget. */
  readonly alwaysInclude?: readonly string[];
}

/**
 * The registry the adapter governs calls through: core's `ToolRegistry` contract plus the calls a
 * governed pipeline answers. `@milpa/tool-runtime`'s `ToolRegistry` satisfies it as it is.
 *
 * @example
 * import { ToolRegistry } from '@milpa/tool-runtime';
 * const registry: GovernedToolRegistry = new ToolRegistry();
 */
export interface GovernedToolRegistry extends ToolRegistry {
  /** The tools `context` may call: what a model sees is what it may call. */
  listToolsFor(context: ToolContext): Promise<readonly AnyToolDefinition[]>;
  /** Runs one call through the whole pipeline; never rejects. */
  call(name: string, args: unknown, context: ToolContext, options?: GovernedCallOptions): Promise<ToolResult>;
  /** Resumes a call an approval gate held, once someone else approved it; never rejects. */
  resume(approvalId: string, context: ToolContext, options?: GovernedCallOptions): Promise<ToolResult>;
  /** The tool's definition, or null for an unknown name. */
  getDefinition(name: string): AnyToolDefinition | null;
  /**
   * The steps a call of `name` by `context` would run, read to learn whether the registry asks for
   * a confirmation or an approval. Without it every mutating call needs a person's approval.
   */
  inspect?(name: string, context: ToolContext): { readonly steps: readonly GovernedPlanStep[] } | null;
  /** The tools to offer one turn, narrowed to the model's budget; used when `model` is given. */
  toolsFor?(context: ToolContext, options: GovernedTurnOptions): Promise<GovernedTurnTools>;
}
