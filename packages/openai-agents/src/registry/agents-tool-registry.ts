import type { AnyToolDefinition, ApprovalStore, ToolContext, ToolRegistry, ToolResult } from '@milpa/core';

/** One step of a registry's own explanation of its pipeline for a tool, as far as the adapter reads it. */
export interface AgentsInvocationStep {
  /** The step's kind, e.g. `confirm` or `approve`. */
  readonly kind: string;
  /** Whether it applies: `active`, `conditional`, `dormant` or `skipped`. */
  readonly presence: string;
}

/** What a registry explains about one tool for one caller: its steps in call order. */
export interface AgentsInvocationPlan {
  /** The pipeline's steps for that tool and caller. */
  readonly steps: readonly AgentsInvocationStep[];
}

/** Options the adapter passes to every governed call. */
export interface AgentsCallOptions {
  /** The run's abort signal: aborting it aborts the call (and the handler's own signal). */
  readonly signal?: AbortSignal;
}

/**
 * The registry the adapter works with: `@milpa/core`'s registration contract plus the governed
 * calls and listings of a running registry. `ToolRegistry` from `@milpa/tool-runtime` has all of it.
 *
 * @example
 * import { ToolRegistry } from '@milpa/tool-runtime';
 * const registry: AgentsToolRegistry = new ToolRegistry();
 */
export interface AgentsToolRegistry extends ToolRegistry {
  /** The definition of the tool of that name, or null. */
  getDefinition(name: string): AnyToolDefinition | null;
  /** Exactly the tools `context` may call: the adapter offers the model these and no others. */
  listToolsFor(context: ToolContext): Promise<readonly AnyToolDefinition[]>;
  /** Runs one call through the governed pipeline; resolves to a result, never rejects. */
  call(name: string, args: unknown, context: ToolContext, options?: AgentsCallOptions): Promise<ToolResult>;
  /**
   * The registry's plan for one tool and caller (which steps apply). When present, the adapter asks
   * it whether the tool's calls meet an approval gate or a confirmation; without it, every call that
   * mutates or asks for confirmation needs the person's approval.
   */
  inspect?(name: string, context: ToolContext): AgentsInvocationPlan | null;
  /** Where the registry keeps calls held for approval; the adapter keeps the run's held calls there too. */
  getApprovalStore?(): ApprovalStore;
}
