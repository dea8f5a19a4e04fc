import type { VerificationApproval } from '../contracts/verification-store.js';
import type { VerificationRequest } from '../verification/verification-request.js';

/**
 * Dispatched as `verification.approval_recorded` with payload `{ event }` when a grant is recorded
 * that does not complete the request's policy yet (the first grant of a `dual` request): the
 * request stays pending until `required` distinct principals granted it.
 */
export class VerificationApprovalRecordedEvent {
  readonly #request: VerificationRequest;
  readonly #approval: VerificationApproval;
  readonly #approvals: number;
  readonly #required: number;

  /** Built by a verifier when it records `approval` on `request`, now with `approvals` of `required` grants. */
  constructor(request: VerificationRequest, approval: VerificationApproval, approvals: number, required: number) {
    this.#request = request;
    this.#approval = approval;
    this.#approvals = approvals;
    this.#required = required;
    Object.freeze(this);
  }

  /** The request the grant was recorded on. */
  getRequest(): VerificationRequest {
    return this.#request;
  }

  /** The grant just recorded: who, when, the reason and any changes. */
  getApproval(): VerificationApproval {
    return this.#approval;
  }

  /** Grants recorded so far, this one included. */
  getApprovals(): number {
    return this.#approvals;
  }

  /** Grants the policy needs. */
  getRequired(): number {
    return this.#required;
  }

  /** The request's correlation id (`request.id`). */
  getRequestId(): string | null {
    return this.#request.id;
  }
}
