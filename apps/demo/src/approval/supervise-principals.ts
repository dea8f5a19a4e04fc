import { ApprovalVerdict, type ApprovalGate, type ApprovalResolution, type PendingApproval } from '@milpa/core';

/** Options of {@link supervisePrincipals}. */
export interface SupervisePrincipalsOptions {
  /** The principals under supervision: their mutating calls go to `supervisor`. */
  readonly principals: readonly string[];
  /** The gate that decides the supervised principals' calls (in the demo, a `verifierApprovalGate`). */
  readonly supervisor: ApprovalGate;
  /** The gate asked about everyone else's mutating calls; default none, so they run without asking. */
  readonly otherwise?: ApprovalGate | null;
}

/** What a resume is told when no gate of this pair could have held the call. */
const NOT_HELD: ApprovalResolution = Object.freeze({
  status: 'rejected',
  reason: 'no gate held this call for a later decision',
  rejectedBy: null,
});

/**
 * One approval gate made of two: the calls of the supervised principals are decided by
 * `supervisor`, every other call by `otherwise` (or allowed when there is none). A held call is
 * resolved by the gate that held it, chosen again by the principal the call is bound to, so a
 * resume never reaches the other gate.
 *
 * @example
 * const gate = supervisePrincipals({ principals: ['agent:assistant'], supervisor: verifierApprovalGate(verifier) });
 * const registry = new ToolRegistry({ approvalGate: gate });
 */
export function supervisePrincipals(options: SupervisePrincipalsOptions): ApprovalGate {
  const supervised: ReadonlySet<string> = new Set(options.principals);
  const otherwise = options.otherwise ?? null;
  const gateOf = (principal: string | null): ApprovalGate | null =>
    principal !== null && supervised.has(principal) ? options.supervisor : otherwise;
  return Object.freeze({
    check: (request) => gateOf(request.principal)?.check(request) ?? ApprovalVerdict.allow(),
    getResolution: (approval: PendingApproval) => gateOf(approval.principal)?.getResolution?.(approval) ?? NOT_HELD,
  } satisfies ApprovalGate);
}
