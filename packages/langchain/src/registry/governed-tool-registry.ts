import type { AnyToolDefinition, ToolContext, ToolRegistry, ToolResult } from '@milpa/core';

/** What the toolkit passes along with each call: the run's abort signal and the call's idempotency key. */
export interface GovernedCallOptions {
  /** The LangChain run's abort signal; aborting it aborts the call (see the pipeline's abort rules). */
  readonly signal?: AbortSignal;
  /**
   * The tool call id: a tool call LangGraph runs again (a retry, a replayed checkpoint, a resumed
   * task) gets the first execution's result back instead of running twice.
   */
  readonly idempotencyKey?: string;
}

/**
 * The registry a {@link MilpaToolkit} serves: core's `ToolRegistry` contract plus the three
 * pipeline entry points it uses. `@milpa/tool-runtime`'s `ToolRegistry` implements it as it is.
 *
 * @example
 * import { ToolRegistry } from '@milpa/tool-runtime';
 * const registry: GovernedToolRegistry = new ToolRegistry();
 */
export interface GovernedToolRegistry extends ToolRegistry {
  /** The tools a caller in `context` may call: exactly what the model is offered. */
  listToolsFor(context: ToolContext): Promise<readonly AnyToolDefinition[]>;
  /** Runs one call through the pipeline; never rejects. */
  call(name: string, args: unknown, context: ToolContext, options?: GovernedCallOptions): Promise<ToolResult>;
  /** Resumes a call an approval gate held, by its approval id; never rejects. */
  resume(approvalId: string, context: ToolContext, options?: GovernedCallOptions): Promise<ToolResult>;
}
