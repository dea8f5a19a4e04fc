/** What a verifier knows about the verification so far: who asks, approvals, evidence. */
export class VerificationContext {
  /** Who is asking, or null. */
  readonly principal: string | null;
  /** Principals who approved so far (duplicates allowed; counted once). */
  readonly approvals: readonly string[];
  /** Evidence by name. */
  readonly evidence: Readonly<Record<string, unknown>>;
  /** Extra data. */
  readonly metadata: Readonly<Record<string, unknown>>;

  /** What is known so far; every argument is copied and frozen. */
  constructor(
    principal: string | null = null,
    approvals: readonly string[] = [],
    evidence: Readonly<Record<string, unknown>> = {},
    metadata: Readonly<Record<string, unknown>> = {},
  ) {
    this.principal = principal;
    this.approvals = Object.freeze([...approvals]);
    this.evidence = Object.freeze({ ...evidence });
    this.metadata = Object.freeze({ ...metadata });
    Object.freeze(this);
  }

  /** Number of distinct approving principals. */
  approvalCount(): number {
    return new Set(this.approvals).size;
  }

  /** True when any evidence is present. */
  hasEvidence(): boolean {
    return Object.keys(this.evidence).length > 0;
  }
}
