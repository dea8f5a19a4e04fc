/** The call a grant lets through the approval gate: one tool, one request, one caller. */
export interface ApprovalGrantBinding {
  /** The tool's name. */
  readonly toolName: string;
  /** The call's request id (the model's tool call id). */
  readonly requestId: string;
  /** The calling principal, or null. */
  readonly principal: string | null;
  /** The calling channel. */
  readonly channel: string;
  /** The Milpa run, or null. */
  readonly runId: string | null;
}

/** Where a grant travels to the gate: in the call's `ToolContext.extra`, under a key nobody else holds. */
export const APPROVAL_GRANT_KEY: unique symbol = Symbol('milpa.openai-agents.approval-grant');

// Grants are objects only this module makes: a look-alike put into a context's extras by anyone
// else is not in the set, and a grant leaves the set the first time it is presented.
const issued = new WeakSet<object>();

/** Mints a one-use grant for exactly this call; only {@link redeemApprovalGrant} accepts it, once. */
export function issueApprovalGrant(binding: ApprovalGrantBinding): ApprovalGrantBinding {
  const grant = Object.freeze({ ...binding });
  issued.add(grant);
  return grant;
}

/** Withdraws a grant that was not used (the call stopped before the gate), so nothing can use it later. */
export function revokeApprovalGrant(grant: ApprovalGrantBinding): void {
  issued.delete(grant);
}

/**
 * True, once, when `value` is a grant this module issued for exactly the call described by
 * `request`. The grant is spent by the first presentation, whether it matches or not.
 */
export function redeemApprovalGrant(value: unknown, request: ApprovalGrantBinding): boolean {
  if (typeof value !== 'object' || value === null || !issued.delete(value)) return false;
  const grant = value as ApprovalGrantBinding;
  return (
    grant.toolName === request.toolName &&
    grant.requestId === request.requestId &&
    grant.principal === request.principal &&
    grant.channel === request.channel &&
    grant.runId === request.runId
  );
}
