import { ApprovalVerdict, MilpaError, type ApprovalGate, type ApprovalRequest } from '@milpa/core';

/** What a policy function answers: true to allow, false to deny, or a verdict of its own. */
export type ApprovalPolicyAnswer = boolean | ApprovalVerdict;

/** Options of {@link policyApprovalGate}. */
export interface PolicyApprovalGateOptions {
  /** The reason given when the function answers false; default "refused by the approval policy". */
  readonly reason?: string;
}

const DEFAULT_REASON = 'refused by the approval policy.';

/**
 * An approval gate from a function of the call: `true` allows, `false` denies with `reason`, an
 * `ApprovalVerdict` is taken as it is. It may answer with a promise. Anything else — and a throw
 * or rejection — denies the call, like any gate. It cannot hold calls for later: a suspension from
 * it is a denial.
 *
 * @example
 * const registry = new ToolRegistry({
 *   approvalGate: policyApprovalGate(({ toolName, context }) => toolName !== 'drop_table' || context.hasScope('db:admin'), {
 *     reason: 'Only database admins drop tables.',
 *   }),
 * });
 * @throws MilpaError `INVALID_ARGUMENT` when `decide` is not a function or the reason is blank.
 */
export function policyApprovalGate(
  decide: (request: ApprovalRequest) => ApprovalPolicyAnswer | PromiseLike<ApprovalPolicyAnswer>,
  options: PolicyApprovalGateOptions = {},
): ApprovalGate {
  if (typeof decide !== 'function')
    throw new MilpaError('policyApprovalGate() needs a function of the call.', { code: 'INVALID_ARGUMENT' });
  // Built once: an invalid reason fails here, at configuration, not on the first denied call.
  const denial = ApprovalVerdict.deny(options.reason ?? DEFAULT_REASON);
  const verdictOf = (answer: unknown): ApprovalVerdict => {
    if (answer === true) return ApprovalVerdict.allow();
    if (answer === false) return denial;
    // Anything else goes to the registry as it is: a verdict is used, garbage denies the call.
    return answer as ApprovalVerdict;
  };
  return Object.freeze({
    check(request: ApprovalRequest): ApprovalVerdict | PromiseLike<ApprovalVerdict> {
      const answer = decide(request);
      if (typeof answer === 'object' && answer !== null && typeof (answer as { then?: unknown }).then === 'function') {
        return Promise.resolve(answer).then(verdictOf);
      }
      return verdictOf(answer);
    },
  });
}
