import type { GovernedCallOptions as CoreGovernedCallOptions, GovernedToolRegistry as CoreGovernedToolRegistry } from '@milpa/core';

/**
 * What the toolkit passes along with each call: the run's abort signal and the call's idempotency
 * key (the tool call id), and on a confirmed replay the confirmation token.
 * @deprecated Use `GovernedCallOptions` from `@milpa/core`.
 */
export type GovernedCallOptions = CoreGovernedCallOptions;

/**
 * The part of `@milpa/core`'s `GovernedToolRegistry` a {@link MilpaToolkit} calls: registration,
 * `listToolsFor`, `call` and `resume`, and `getApprovalStore` (where review decisions are bound)
 * when the registry has one. `@milpa/tool-runtime`'s `ToolRegistry` implements it as it is.
 *
 * @deprecated Program against `GovernedToolRegistry` from `@milpa/core`; this alias names the part of it the toolkit uses.
 * @example
 * import { ToolRegistry } from '@milpa/tool-runtime';
 * const registry: GovernedToolRegistry = new ToolRegistry();
 */
export type GovernedToolRegistry = Pick<CoreGovernedToolRegistry, 'register' | 'has' | 'listToolsFor' | 'call' | 'resume'> &
  Partial<Pick<CoreGovernedToolRegistry, 'getApprovalStore'>>;
