/**
 * How argument tidying changed one argument: `dropped` (an optional argument sent as null, blank,
 * `*` or `%`, now absent), `bounded` (a number outside the schema's `minimum` / `maximum`, set to
 * that bound) or `converted` (a numeric string made a number).
 */
export type TidyAction = 'dropped' | 'bounded' | 'converted';

/**
 * One argument that tidying changed before a person is asked about the call, with its values
 * redacted as the rest of the request's `redactedArguments` (a secret field shows the placeholder).
 */
export interface TidiedArgument {
  /** The argument's name. */
  readonly field: string;
  /** What tidying did to it. */
  readonly action: TidyAction;
  /** The value the caller sent, redacted. */
  readonly sent: unknown;
  /** Whether the argument is still present in the call's arguments (false when it was dropped). */
  readonly present: boolean;
  /** The value that will execute, redacted; undefined when the argument was dropped. */
  readonly value: unknown;
}
