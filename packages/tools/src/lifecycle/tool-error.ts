import { MilpaError } from '@milpa/core';

/** Options of a {@link ToolError}. */
export interface ToolErrorOptions {
  /**
   * The underlying failure. Only a `ToolError` with a cause counts as an infrastructure failure a
   * lifecycle tool may recover from (and retry); one without a cause is a final refusal.
   */
  readonly cause?: unknown;
  /** Extra fields for the failure result's `meta` (no secrets, no file contents). */
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * A failure a tool reports on purpose, with a code the model can act on (`PATH_OUTSIDE_WORKSPACE`,
 * `UNKNOWN_ARGUMENT`, …). Thrown from a lifecycle step it becomes a failure result with that code
 * and message; thrown with a `cause` from `perform`, `verify` or `complete`, it is first offered to
 * the tool's `recover`.
 *
 * @example
 * throw new ToolError('UPSTREAM_UNAVAILABLE', 'The index could not be read.', { cause: error });
 */
export class ToolError extends MilpaError {
  /** Extra fields for the failure result's `meta`. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, options: ToolErrorOptions = {}) {
    super(message, { code, cause: options.cause });
    this.name = 'ToolError';
    this.details = Object.freeze({ ...options.details });
  }

  /** True when `error` is a `ToolError` with a cause: an infrastructure failure that may be retried. */
  static isRecoverable(error: unknown): error is ToolError {
    return error instanceof ToolError && error.cause !== undefined;
  }
}
