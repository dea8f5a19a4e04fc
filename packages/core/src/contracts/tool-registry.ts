import type { AnyToolDefinition } from '../tools/tool-definition.js';

/**
 * The registration contract plugins use. `@milpa/tool-runtime`'s `ToolRegistry` implements it;
 * a plugin depending on `@milpa/core` alone can register tools on any conforming registry.
 */
export interface ToolRegistry {
  /** Registers a tool; throws `MilpaError` for a duplicate name or an invalid definition. */
  register(definition: AnyToolDefinition): void;
  /** True when a tool of that name is registered. */
  has(name: string): boolean;
}
