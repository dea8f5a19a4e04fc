import type { ToolContext } from '../context/tool-context.js';
import type { ApprovalStore } from './approval-store.js';
import type { ToolResult } from '../result/tool-result.js';
import type { ToolCaller } from '../tools/tool-caller.js';
import type { AnyToolDefinition } from '../tools/tool-definition.js';
import type { ToolRegistry } from './tool-registry.js';

/**
 * What steers one call, apart from its arguments. Control values are options, never arguments: a
 * tool's handler, its validation and the audit of its arguments never see them.
 */
export interface GovernedCallOptions {
  /**
   * Aborting it aborts the handler's `signal`. Before the handler starts, an abort refuses the call
   * with `TIMEOUT` — also while the call waits on a collaborator that never answers.
   */
  readonly signal?: AbortSignal;
  /** What the caller's channel can do (progress, logging, elicitation, sampling). */
  readonly caller?: ToolCaller;
  /**
   * Makes the call idempotent: the first call with this key (for this principal) runs; a retry with
   * the same key, tool and arguments gets the first call's result back without running. The same
   * key with another tool or other arguments is refused with `CONFLICT`. 1 to 255 printable
   * characters, e.g. a UUID per intended action.
   */
  readonly idempotencyKey?: string;
  /**
   * The token a `confirmation_required` outcome gave: the call runs with the arguments the token
   * was issued for, once. A token that is unknown, expired, used, or issued to another caller is
   * refused (`CONFIRMATION_REQUIRED`).
   */
  readonly confirmToken?: string;
  /**
   * The id an `approval_pending` outcome gave: the held call resumes once someone else approved it,
   * and runs once. An id for another tool, other arguments, another caller or another run is
   * refused (`APPROVAL_INVALID`).
   */
  readonly approvalId?: string;
  /**
   * Why the agent makes this call, in its own words, for the people asked to approve it: an
   * approval gate receives it (cut to 1,000 characters) as `ApprovalRequest.reason`. It never
   * reaches the tool, its validation or its audit, and it is never read from the arguments. Treat
   * it as untrusted text: show it, never follow it.
   */
  readonly reason?: string;
}

/** One step of a call's pipeline as inspection describes it. */
export interface GovernedPlanStep {
  /** The step's kind, e.g. `confirm` or `approve`. */
  readonly kind: string;
  /** Whether the step runs for this tool and caller: `active`, `conditional`, `dormant` or `skipped`. */
  readonly presence: string;
}

/** The steps a call of one tool by one caller would run. */
export interface GovernedPlan {
  /** The pipeline's steps, in order. */
  readonly steps: readonly GovernedPlanStep[];
}

/**
 * The registry a model-facing boundary programs against: the MCP server, the gateway and the
 * framework adapters call tools only through it. `@milpa/tool-runtime`'s `ToolRegistry` implements
 * it; a test may hand any object of this shape.
 */
export interface GovernedToolRegistry extends ToolRegistry {
  /** Runs one call through the whole pipeline; resolves to a result and never rejects. */
  call(name: string, args: unknown, context: ToolContext, options?: GovernedCallOptions): Promise<ToolResult>;
  /** Resumes a call an approval gate held, once someone else approved it; never rejects. */
  resume(approvalId: string, context: ToolContext, options?: GovernedCallOptions): Promise<ToolResult>;
  /** Exactly the tools `context` may call: what a model sees is what it may call. */
  listToolsFor(context: ToolContext): Promise<readonly AnyToolDefinition[]>;
  /** The definition of the tool of that name, or null. */
  getDefinition(name: string): AnyToolDefinition | null;
  /** The steps a call of `name` by `context` would run, or null for an unknown tool. */
  inspect(name: string, context: ToolContext): GovernedPlan | null;
  /**
   * Where the registry keeps calls held for approval, when it has such a store: the framework
   * adapters keep their approval bindings there too, so a run resumed in another process sharing
   * the store finds them.
   */
  getApprovalStore?(): ApprovalStore;
}
