import { VerificationStatus } from './verification-status.js';

/** The wire shape of a {@link VerificationResult}. */
export interface VerificationResultJson {
  /** The verdict. */
  readonly status: VerificationStatus;
  /** Why it failed or was waived, or null. */
  readonly reason: string | null;
  /** Which verifier decided, or null. */
  readonly verifier: string | null;
  /** Who decided, or null. */
  readonly principal: string | null;
  /** What is missing for a pass. */
  readonly missing: readonly string[];
  /** Extra data. */
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** A verifier's verdict: passed, failed, waived, or still pending. Build with the factories. */
export class VerificationResult {
  /** The verdict. */
  readonly status: VerificationStatus;
  /** Why it failed or was waived, or null. */
  readonly reason: string | null;
  /** Which verifier decided, or null. */
  readonly verifier: string | null;
  /** Who decided, or null. */
  readonly principal: string | null;
  /** What is missing for a pass. */
  readonly missing: readonly string[];
  /** Extra data. */
  readonly metadata: Readonly<Record<string, unknown>>;

  private constructor(
    status: VerificationStatus,
    reason: string | null,
    verifier: string | null,
    principal: string | null,
    missing: readonly string[],
    metadata: Readonly<Record<string, unknown>>,
  ) {
    this.status = status;
    this.reason = reason;
    this.verifier = verifier;
    this.principal = principal;
    this.missing = Object.freeze([...missing]);
    this.metadata = Object.freeze({ ...metadata });
    Object.freeze(this);
  }

  /** A pass. */
  static pass(
    verifier: string | null = null,
    principal: string | null = null,
    metadata: Readonly<Record<string, unknown>> = {},
  ): VerificationResult {
    return new VerificationResult(VerificationStatus.PASSED, null, verifier, principal, [], metadata);
  }

  /** A failure with its reason and what is missing. */
  static fail(
    reason: string,
    missing: readonly string[] = [],
    verifier: string | null = null,
    metadata: Readonly<Record<string, unknown>> = {},
    principal: string | null = null,
  ): VerificationResult {
    return new VerificationResult(VerificationStatus.FAILED, reason, verifier, principal, missing, metadata);
  }

  /** A waiver: satisfied without a check, with its reason. */
  static waived(
    reason: string,
    principal: string | null = null,
    verifier: string | null = null,
    metadata: Readonly<Record<string, unknown>> = {},
  ): VerificationResult {
    return new VerificationResult(VerificationStatus.WAIVED, reason, verifier, principal, [], metadata);
  }

  /** Not decided yet; resolves later. */
  static pending(verifier: string | null = null, metadata: Readonly<Record<string, unknown>> = {}): VerificationResult {
    return new VerificationResult(VerificationStatus.PENDING, null, verifier, null, [], metadata);
  }

  /** Passed or waived. */
  isSatisfied(): boolean {
    return this.status === VerificationStatus.PASSED || this.status === VerificationStatus.WAIVED;
  }

  /** Still pending. */
  isPending(): boolean {
    return this.status === VerificationStatus.PENDING;
  }

  /** Anything but pending. */
  isFinal(): boolean {
    return this.status !== VerificationStatus.PENDING;
  }

  /** True when something is listed as missing. */
  hasMissing(): boolean {
    return this.missing.length > 0;
  }

  /** `{status, reason, verifier, principal, missing, metadata}`. */
  toJSON(): VerificationResultJson {
    return {
      status: this.status,
      reason: this.reason,
      verifier: this.verifier,
      principal: this.principal,
      missing: this.missing,
      metadata: this.metadata,
    };
  }
}
