import { MilpaError } from '../errors/milpa-error.js';
import { generateRandomId } from '../ids/generate-random-id.js';
import { ApprovalPolicy } from './approval-policy.js';

/**
 * What is to be verified: a subject (e.g. `gate:report.publish`), the approval policy, an optional
 * payload, who asked and a correlation id. A resolve-only reconstruction has a null subject and is
 * identified by its id alone ({@link VerificationRequest.forResolution}).
 */
export class VerificationRequest {
  /** What is to be verified, or null in a resolve-only reconstruction. */
  readonly subject: string | null;
  /** The approval policy. */
  readonly policy: ApprovalPolicy;
  /** Extra data for the verifier. */
  readonly payload: Readonly<Record<string, unknown>>;
  /** Who opened the request, or null. */
  readonly requestedBy: string | null;
  /** The correlation id, or null. */
  readonly id: string | null;

  /**
   * @throws MilpaError `INVALID_ARGUMENT` when `subject` is given but blank or not a string, or
   *   `policy` is not an {@link ApprovalPolicy}.
   */
  constructor(
    subject: string | null,
    policy: ApprovalPolicy = 'single',
    payload: Readonly<Record<string, unknown>> = {},
    requestedBy: string | null = null,
    id: string | null = null,
  ) {
    if (subject !== null && typeof subject !== 'string') {
      throw new MilpaError('VerificationRequest "subject" must be a string or null.', { code: 'INVALID_ARGUMENT' });
    }
    if (subject !== null && subject.trim() === '') {
      throw new MilpaError(
        'VerificationRequest "subject" must not be empty when provided; pass ' +
          'null (or use ::forResolution()) for a resolve-only reconstruction.',
        { code: 'INVALID_ARGUMENT' },
      );
    }
    if (!ApprovalPolicy.isApprovalPolicy(policy)) {
      throw new MilpaError(`VerificationRequest policy must be one of ${ApprovalPolicy.values.join(', ')}; got '${String(policy)}'.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    this.subject = subject;
    this.policy = policy;
    this.payload = Object.freeze({ ...payload });
    this.requestedBy = requestedBy;
    this.id = id;
    Object.freeze(this);
  }

  /** A request with a fresh, unguessable UUID v4 id ({@link generateRandomId} `uuid`). */
  static withGeneratedId(
    subject: string,
    policy: ApprovalPolicy = 'single',
    payload: Readonly<Record<string, unknown>> = {},
    requestedBy: string | null = null,
  ): VerificationRequest {
    return new VerificationRequest(subject, policy, payload, requestedBy, generateRandomId('uuid'));
  }

  /**
   * A resolve-only reconstruction: subject null, identified by `id`.
   * @throws MilpaError `INVALID_ARGUMENT` when `id` is blank.
   */
  static forResolution(id: string, policy: ApprovalPolicy = 'single'): VerificationRequest {
    if (typeof id !== 'string' || id.trim() === '') {
      throw new MilpaError('VerificationRequest::forResolution() requires a non-empty "id".', {
        code: 'INVALID_ARGUMENT',
      });
    }
    return new VerificationRequest(null, policy, {}, null, id);
  }
}
