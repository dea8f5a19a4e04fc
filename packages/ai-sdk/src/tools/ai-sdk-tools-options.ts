import type { ApprovalStore, ToolContext } from '@milpa/core';

/**
 * Which calls go through the AI SDK's approval flow:
 * - `'gated'` (default): a call the registry would stop for a person — the tool requires
 *   confirmation, or the call mutates (for its arguments) and the registry confirms or holds
 *   such calls for this caller (confirmation policy or approval gate);
 * - `'mutating'`: every call that mutates for its arguments, and every call of a tool that
 *   requires confirmation, whatever the registry would do.
 */
export type AiSdkApprovalMode = 'gated' | 'mutating';

/** Options of {@link aiSdkTools}. */
export interface AiSdkToolsOptions {
  /** Who calls: the principal, channel, scopes and run every call runs as. Required. */
  readonly context: ToolContext;
  /**
   * The model, to narrow the tools to its per-turn budget (the registry's `toolsFor`): a model id,
   * or an AI SDK model object (its `provider` and `modelId` are read). Without it every tool the
   * context may call is offered.
   */
  readonly model?: string | { readonly provider: string; readonly modelId: string };
  /** The user's message this turn: with `model`, the tools it names are offered first. */
  readonly message?: string;
  /** With `model`: tools offered on every turn, on top of the budget. */
  readonly alwaysInclude?: readonly string[];
  /** Which calls need a person's approval through the AI SDK (default `'gated'`). */
  readonly approval?: AiSdkApprovalMode;
  /**
   * The person who answers the AI SDK's approval requests, as a context (e.g. the signed-in
   * reviewer). When the registry's approval gate holds a call a person approved in the AI SDK,
   * the adapter grants the held call as this person through `resolveTool`, and the gate's own
   * rules apply (an approver other than the requester, dual approval). Without it, a held call
   * stays held and the model reads `APPROVAL_PENDING` with its `approval_id`.
   */
  readonly approver?: ToolContext;
  /** The tool that grants held calls (default `resolve_verification`, from `@milpa/verification`). */
  readonly resolveTool?: string;
  /**
   * Where the approval requests the adapter issues are bound (through core's approval binding: the
   * tool call id, a digest of the arguments and the caller, redeemed once) until answered. Default:
   * the registry's approval store, or else one in-memory store per registry, shared by every tool
   * set built for it. Share one store to answer approvals in another process.
   */
  readonly approvalStore?: ApprovalStore;
  /** How long a person may take to answer an approval request, in seconds (default 3,600). */
  readonly approvalTtlSeconds?: number;
}
