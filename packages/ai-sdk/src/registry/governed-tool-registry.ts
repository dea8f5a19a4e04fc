import type {
  GovernedCallOptions as CoreGovernedCallOptions,
  GovernedPlanStep as CoreGovernedPlanStep,
  GovernedToolRegistry as CoreGovernedToolRegistry,
  ToolContext,
} from '@milpa/core';

/**
 * What the adapter passes with every call: the framework's abort signal, and the control values
 * the model sent that this adapter carries (see the README's "Control values a model sends").
 * @deprecated Use `GovernedCallOptions` from `@milpa/core`.
 */
export type GovernedCallOptions = CoreGovernedCallOptions;

/**
 * One step of a registry's invocation plan.
 * @deprecated Use `GovernedPlanStep` from `@milpa/core`.
 */
export type GovernedPlanStep = CoreGovernedPlanStep;

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
 * The part of `@milpa/core`'s `GovernedToolRegistry` the adapter calls: the tool list, `call`,
 * `resume` and `getDefinition`; `inspect` (to learn whether the registry asks for a confirmation or
 * an approval; without it every mutating call needs a person's approval) and `getApprovalStore`
 * (where approval bindings are kept by default) when the registry has them; and `toolsFor`, the
 * per-turn tool budget, used when `model` is given. `@milpa/tool-runtime`'s `ToolRegistry`
 * satisfies it as it is.
 *
 * @deprecated Program against `GovernedToolRegistry` from `@milpa/core`; this alias names the part of it the adapter uses.
 * @example
 * import { ToolRegistry } from '@milpa/tool-runtime';
 * const registry: GovernedToolRegistry = new ToolRegistry();
 */
export type GovernedToolRegistry = Pick<
  CoreGovernedToolRegistry,
  'register' | 'has' | 'listToolsFor' | 'call' | 'resume' | 'getDefinition'
> &
  Partial<Pick<CoreGovernedToolRegistry, 'inspect' | 'getApprovalStore'>> & {
    /** The tools to offer one turn, narrowed to the model's budget; used when `model` is given. */
    toolsFor?(context: ToolContext, options: GovernedTurnOptions): Promise<GovernedTurnTools>;
  };
