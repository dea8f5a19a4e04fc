/** The verdict of a verification. */
export const VerificationStatus = {
  PENDING: 'pending',
  PASSED: 'passed',
  FAILED: 'failed',
  WAIVED: 'waived',
} as const;

/** One of the {@link VerificationStatus} values. */
export type VerificationStatus = (typeof VerificationStatus)[keyof typeof VerificationStatus];
