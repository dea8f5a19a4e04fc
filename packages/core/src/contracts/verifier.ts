import type { VerificationContext } from '../verification/verification-context.js';
import type { VerificationRequest } from '../verification/verification-request.js';
import type { VerificationResult } from '../verification/verification-result.js';

/**
 * Decides whether a subject is verified. The result may be PENDING and resolve later (a person
 * has to answer); a deterministic rule, a quorum vote or an external service plug into the same seam.
 */
export interface Verifier {
  /** Verifies `request`, or opens it and returns a pending result. */
  verify(request: VerificationRequest, context?: VerificationContext): VerificationResult | Promise<VerificationResult>;
}
