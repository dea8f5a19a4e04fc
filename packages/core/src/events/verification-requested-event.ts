import type { VerificationRequest } from '../verification/verification-request.js';

/** Dispatched as `verification.requested` with payload `{ event }` when a request is opened. */
export class VerificationRequestedEvent {
  readonly #request: VerificationRequest;

  /** Built by a verifier when it opens `request`. */
  constructor(request: VerificationRequest) {
    this.#request = request;
    Object.freeze(this);
  }

  /** The request that was opened. */
  getRequest(): VerificationRequest {
    return this.#request;
  }

  /** The request's correlation id (`request.id`). */
  getRequestId(): string | null {
    return this.#request.id;
  }
}
