import type { ToolContext } from '../context/tool-context.js';
import type { ToolResult } from '../result/tool-result.js';
import type { ToolCaller } from './tool-caller.js';
import type { ToolMutating } from './tool-mutability.js';

/** A JSON Schema document (2020-12), as a plain object. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** Arguments of a call, as they arrive over the wire. */
export type ToolArgs = Readonly<Record<string, unknown>>;

/** A clamp applied before validation: numbers are bounded to `[min, max]`, strings cut to `maxLength`. */
export interface ClampRule {
  /** Lower bound for numbers. */
  readonly min?: number;
  /** Upper bound for numbers. */
  readonly max?: number;
  /** Strings longer than this are cut to their first `maxLength` characters. */
  readonly maxLength?: number;
}

/**
 * Hints a tool router uses to decide which tools a model sees for a message: words and phrases
 * describing what the tool is for. Each list holds non-empty strings; a missing list is empty.
 *
 * @example
 * defineTool({
 *   name: 'delete_note',
 *   description: 'Delete a note by id',
 *   routing: { intents: ['delete', 'remove'], domains: ['notes'], tags: ['editor'], examples: ['delete my last note'] },
 *   handler: ({ id }) => ({ deleted: id }),
 * });
 */
export interface ToolRouting {
  /** What a user wants done with the tool (`delete`, `search`); the strongest signal. */
  readonly intents: readonly string[];
  /** The subject areas the tool works in (`notes`, `billing`). */
  readonly domains: readonly string[];
  /** Free keywords (`editor`, `markdown`). */
  readonly tags: readonly string[];
  /** Sample requests the tool answers, in a user's words. */
  readonly examples: readonly string[];
}

/** A clamp as written in options: a {@link ClampRule} or the `[min, max]` shorthand. */
export type ClampSpec = ClampRule | readonly [min: number, max: number];

/** What a handler receives besides its arguments. */
export interface ToolInvocation {
  /** The caller's context (principal, channel, scopes, request id). */
  readonly context: ToolContext;
  /** Aborted when the tool's deadline passes or the caller aborts; pass it to fetch and clients. */
  readonly signal: AbortSignal;
  /** The caller's channel-neutral capabilities (progress, logging, elicitation, sampling). */
  readonly caller: ToolCaller;
}

/**
 * A tool handler: receives the validated, clamped arguments and the invocation; returns a bare
 * value (wrapped in `ToolResult.success`) or a `ToolResult`, directly or as a promise.
 */
export type ToolHandler<TArgs = ToolArgs, TValue = unknown> = (
  args: TArgs,
  invocation: ToolInvocation,
) => TValue | ToolResult | Promise<TValue | ToolResult>;

/**
 * A registered tool, as produced by `defineTool` or the `tool` decorator: plain, frozen data plus
 * its handler. Nothing in `@milpa/core` executes it; `@milpa/tool-runtime` does.
 */
export interface ToolDefinition<TArgs = any, TValue = unknown> {
  /** Unique name on the wire (letters, digits, `_`, `-`, `.`; at most 128 characters). */
  readonly name: string;
  /** What the tool does, for people and models. */
  readonly description: string;
  /** A human-friendly display title, or null. */
  readonly title: string | null;
  /** The JSON Schema (2020-12) of the arguments; its root is an object schema. */
  readonly inputSchema: JsonSchema;
  /** The handler. */
  handler(args: TArgs, invocation: ToolInvocation): TValue | ToolResult | Promise<TValue | ToolResult>;
  /** Scopes of which the caller needs at least one; empty for none. */
  readonly scopes: readonly string[];
  /**
   * Whether the tool changes state (costs more rate budget, may need confirmation): a boolean, or a
   * function of the validated arguments. Read it through `isMutatingCall` (with arguments) or
   * `mutabilityOf` (without), which treat a throwing or non-boolean answer as mutating.
   */
  readonly mutating: ToolMutating<TArgs>;
  /** Whether every call needs a confirmation round trip. */
  readonly requiresConfirmation: boolean;
  /** Deadline in milliseconds (default 30 000). */
  readonly timeoutMs: number;
  /** When true, the deadline returns `TIMEOUT` without waiting for the handler. */
  readonly hardTimeout: boolean;
  /** Normalized clamps by field name. */
  readonly clamps: Readonly<Record<string, ClampRule>>;
  /** The tool's version, or null. */
  readonly version: string | null;
  /** The JSON Schema of the result data, or null. */
  readonly outputSchema: JsonSchema | null;
  /** Routing hints with every list present, or null when the declaration gave none. */
  readonly routing: ToolRouting | null;
}

/** A definition of any argument and value type, as registries store them. */
export type AnyToolDefinition = ToolDefinition<any, any>;
