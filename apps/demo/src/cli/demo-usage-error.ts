import { MilpaError } from '@milpa/core';

/** What kind of bad input a {@link DemoUsageError} reports. */
export type DemoUsageErrorCode = 'UNKNOWN_TOOL' | 'INVALID_ARGS' | 'INVALID_OPTION' | 'STATE_UNAVAILABLE' | 'USAGE_ERROR';

/**
 * Bad input on the demo's command line (an unknown tool, `--args` that is not a JSON object, an
 * impossible option value, a `--db` file that cannot hold the demo's state). The CLI prints it as
 * one `error:` line and one `hint:` line and exits with status 2, never with a stack trace.
 *
 * @example
 * throw new DemoUsageError("unknown tool 'list_note'", "did you mean 'list_notes'?", 'UNKNOWN_TOOL');
 */
export class DemoUsageError extends MilpaError {
  /** What to do about it, in one line. */
  readonly hint: string;

  /** A usage fault with a one-line `message`, a one-line `hint` and a `code`. */
  constructor(message: string, hint: string, code: DemoUsageErrorCode = 'USAGE_ERROR') {
    super(message, { code });
    this.hint = hint;
  }
}
