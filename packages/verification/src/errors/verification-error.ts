import { MilpaError, type ToolErrorCode, type VerificationRefusal } from '@milpa/core';

/**
 * Why a {@link VerificationError} was raised: a store refusal, a request id that is already taken
 * (`duplicate_id`), a request that cannot be opened (`invalid_request`, e.g. no subject or id),
 * a store that holds as many pending requests as it may (`too_many_pending`), or a grant's changes
 * that are not a plain object of JSON data (`invalid_changes`).
 */
export type VerificationErrorKind = VerificationRefusal | 'duplicate_id' | 'invalid_request' | 'too_many_pending' | 'invalid_changes';

/** Options of a {@link VerificationError}. */
export interface VerificationErrorOptions {
  /** The error code in `ToolErrorCode` terms (`NOT_FOUND`, `CONFLICT`, `FORBIDDEN`, `VALIDATION_ERROR`, `RATE_LIMITED`). */
  readonly code: ToolErrorCode;
  /** Why the operation was refused. */
  readonly kind: VerificationErrorKind;
  /** The request the refusal is about, or null when the request had no id. */
  readonly requestId: string | null;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/**
 * Thrown (as a rejected promise) by `HumanVerifier.verify()`, `grant()` and `reject()` when the
 * store refuses the operation; nothing changed and no event was dispatched. `code` is a
 * `ToolErrorCode`, so a tool can turn it into `ToolResult.failure(error.code, error.message)`.
 *
 * @example
 * try {
 *   await verifier.grant(VerificationRequest.forResolution('r-1'), 'agent:reviewer');
 * } catch (error) {
 *   if (VerificationError.isVerificationError(error)) console.log(error.code, error.kind); // 'NOT_FOUND' 'not_found'
 * }
 */
export class VerificationError extends MilpaError {
  /** The error code in `ToolErrorCode` terms. */
  declare readonly code: ToolErrorCode;
  /** Why the operation was refused. */
  readonly kind: VerificationErrorKind;
  /** The request the refusal is about, or null. */
  readonly requestId: string | null;

  /** Creates the error; `options.code` becomes the `MilpaError` code. */
  constructor(message: string, options: VerificationErrorOptions) {
    super(message, { code: options.code, cause: options.cause });
    this.kind = options.kind;
    this.requestId = options.requestId;
  }

  /** True when `value` is a `VerificationError` (checked by brand and shape, so copies of this package agree). */
  static isVerificationError(value: unknown): value is VerificationError {
    return MilpaError.isInstance(value) && typeof (value as { kind?: unknown }).kind === 'string' && 'requestId' in value;
  }
}
