/** The verdict of a verification. */
export const VerificationStatus = Object.freeze({
  /** Not decided yet. */
  PENDING: 'pending',
  /** Verified. */
  PASSED: 'passed',
  /** Refused; `reason` says why. */
  FAILED: 'failed',
  /** Satisfied without a check; `reason` says why. */
  WAIVED: 'waived',
} as const);

/** One of the {@link VerificationStatus} values. */
export type VerificationStatus = (typeof VerificationStatus)[keyof typeof VerificationStatus];
