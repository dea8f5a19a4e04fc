import type { VerificationRequest } from '../verification/verification-request.js';
import type { VerificationResult } from '../verification/verification-result.js';

/** Dispatched as `verification.granted` with payload `{ event }` when a request is granted. */
export class VerificationGrantedEvent {
  readonly #request: VerificationRequest;
  readonly #result: VerificationResult;

  /** Built by a verifier when it grants `request` with `result`. */
  constructor(request: VerificationRequest, result: VerificationResult) {
    this.#request = request;
    this.#result = result;
    Object.freeze(this);
  }

  /** The request that was granted. */
  getRequest(): VerificationRequest {
    return this.#request;
  }

  /** The verdict. */
  getResult(): VerificationResult {
    return this.#result;
  }

  /** The request's correlation id (`request.id`). */
  getRequestId(): string | null {
    return this.#request.id;
  }
}
