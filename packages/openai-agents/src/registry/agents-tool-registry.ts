import type { GovernedCallOptions, GovernedPlan, GovernedPlanStep, GovernedToolRegistry } from '@milpa/core';

/**
 * One step of a registry's plan for a tool.
 * @deprecated Use `GovernedPlanStep` from `@milpa/core`.
 */
export type AgentsInvocationStep = GovernedPlanStep;

/**
 * A registry's plan for one tool and caller.
 * @deprecated Use `GovernedPlan` from `@milpa/core`.
 */
export type AgentsInvocationPlan = GovernedPlan;

/**
 * The options the adapter passes to every governed call.
 * @deprecated Use `GovernedCallOptions` from `@milpa/core`.
 */
export type AgentsCallOptions = GovernedCallOptions;

/**
 * The part of `@milpa/core`'s `GovernedToolRegistry` the adapter calls: registration, the tool list
 * and `call`, with `inspect` (to learn whether a tool meets an approval gate or a confirmation;
 * without it every call that mutates or asks for confirmation needs the person's approval) and
 * `getApprovalStore` (where the run's held calls are kept by default) when the registry has them.
 * `ToolRegistry` from `@milpa/tool-runtime` has all of it.
 *
 * @deprecated Program against `GovernedToolRegistry` from `@milpa/core`; this alias names the part of it the adapter uses.
 * @example
 * import { ToolRegistry } from '@milpa/tool-runtime';
 * const registry: AgentsToolRegistry = new ToolRegistry();
 */
export type AgentsToolRegistry = Pick<GovernedToolRegistry, 'register' | 'has' | 'getDefinition' | 'listToolsFor' | 'call'> &
  Partial<Pick<GovernedToolRegistry, 'inspect' | 'getApprovalStore'>>;
