import type { AnyToolDefinition, ClampRule, ToolArgs } from '@milpa/core';
import type { CompiledValidator } from '../validation/schema-validator.js';

/** The rate-limit key of one caller of one tool. */
export interface RateLimitKeyMemo {
  readonly channel: string;
  readonly principal: string | null;
  readonly key: string;
}

/**
 * A registered tool with what the pipeline prepared for it. Registration only checks the schemas;
 * the validator and the argument copier are built by the validate stage on the tool's first call
 * and kept here, so a registry of thousands of tools pays for the tools that are actually called.
 */
export interface RegisteredTool {
  /** The normalized definition. */
  readonly definition: AnyToolDefinition;
  /**
   * The compiled input validator; null when the input schema is empty (there is nothing to
   * validate); undefined until the tool's first call compiles it (written by the validate stage).
   */
  validate: CompiledValidator | null | undefined;
  /**
   * Freezes arguments that passed `validate` (specialised to the schema where it can be); undefined
   * until the validate stage builds it on the tool's first call.
   */
  freezeArgs: ((args: Readonly<Record<string, unknown>>) => ToolArgs) | undefined;
  /**
   * The clamps the clamp stage applies: the tool's, without those on identifier or protected fields
   * (see `applicableClamps`); null when none remain.
   */
  readonly clamps: Readonly<Record<string, ClampRule>> | null;
  /**
   * The key of the tool's last caller, reused while calls keep coming from the same channel and
   * principal: a freshly built key string must be flattened and hashed by the limiter's map on every
   * call, which costs more than the rest of the limiter. Null until the first rate-limited call.
   */
  rateLimitKey: RateLimitKeyMemo | null;
}
