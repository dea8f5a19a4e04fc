/** How many approvals a verification request needs. */
export type ApprovalPolicy = 'single' | 'dual' | 'quorum' | 'auto';

const POLICIES: readonly ApprovalPolicy[] = Object.freeze(['single', 'dual', 'quorum', 'auto']);

/**
 * The approval policies and their rules: `single` needs one approval, `dual` two from distinct
 * principals, `quorum` a count the verifier configures (0 here), `auto` none.
 */
export const ApprovalPolicy = Object.freeze({
  /** One approval. */
  SINGLE: 'single',
  /** Two approvals from distinct principals. */
  DUAL: 'dual',
  /** A number of approvals the verifier configures. */
  QUORUM: 'quorum',
  /** No approval: the verifier decides on its own. */
  AUTO: 'auto',
  /** Every policy, in declaration order. */
  values: POLICIES,
  /** True when `value` names a policy. */
  isApprovalPolicy(value: unknown): value is ApprovalPolicy {
    return typeof value === 'string' && (POLICIES as readonly string[]).includes(value);
  },
  /** Approvals the policy itself requires: 1, 2, 0 (configured by the verifier), 0. */
  requiredApprovals(policy: ApprovalPolicy): number {
    switch (policy) {
      case 'single':
        return 1;
      case 'dual':
        return 2;
      case 'quorum':
      case 'auto':
        return 0;
    }
  },
  /** True only for `auto`. */
  isAutomatic(policy: ApprovalPolicy): boolean {
    return policy === 'auto';
  },
} as const);
