import type { ToolContext } from '../context/tool-context.js';
import type { InvocationTarget } from '../invocation/invocation-target.js';
import type { AnyToolDefinition, ToolArgs } from '../tools/tool-definition.js';
import type { TidiedArgument } from './tidied-argument.js';

/**
 * What an {@link ApprovalGate} is asked about: one call that mutates for its validated arguments,
 * after authorization, invocation rules, rate limit and confirmation have let it through.
 */
export interface ApprovalRequest {
  /** The tool's name. */
  readonly toolName: string;
  /** The validated arguments, deeply frozen: exactly what would execute. */
  readonly arguments: ToolArgs;
  /**
   * The same arguments with secret fields replaced by a placeholder and secret values scrubbed from
   * every other string (keys included): safe to show a person or log, and the only form a page
   * should show.
   */
  readonly redactedArguments: Readonly<Record<string, unknown>>;
  /** The tool's definition. */
  readonly definition: AnyToolDefinition;
  /** Whether this call mutates for its arguments (always true when a gate is asked). */
  readonly mutating: boolean;
  /** Who calls: principal, channel, scopes, run and request id. */
  readonly context: ToolContext;
  /** The calling principal, or null. */
  readonly principal: string | null;
  /** The calling channel. */
  readonly channel: string;
  /** The agent run the call belongs to, or null. */
  readonly runId: string | null;
  /** The call's request id. */
  readonly requestId: string;
  /**
   * The id the call is held under if the gate suspends it: unguessable, and the one the requester
   * resumes with. A gate that asks a person uses it as its own correlation id.
   */
  readonly approvalId: string;
  /** The caller's abort signal, or null: a gate that waits (on a person) stops waiting when it aborts. */
  readonly signal: AbortSignal | null;
  /**
   * The arguments argument tidying changed (registry option `tidyArguments`): what the caller sent
   * and what will execute instead, redacted. Empty when tidying changed nothing or is off; a gate
   * that asks a person should show it, so nobody approves a call that differs from what was asked
   * without seeing how. Absent from requests built by hand before it existed.
   */
  readonly tidied?: readonly TidiedArgument[];
  /**
   * What the call acts on, as the registry's target resolvers named it (the invocation rules see the
   * same target), or null when no resolver named one or none was asked. Absent from requests built
   * by hand before it existed.
   */
  readonly target?: InvocationTarget | null;
  /**
   * Why the agent says it makes this call (the `reason` call option, or an MCP client's
   * `dev.milpa/reason`), cut to 1,000 characters, or null when it gave none. The caller's own words:
   * untrusted text, shown to a person as plain text and never taken as an instruction. Absent from
   * requests built by hand before it existed.
   */
  readonly reason?: string | null;
}
