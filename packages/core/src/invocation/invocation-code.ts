/** The most characters an invocation rule identifier or reason code may have. */
export const INVOCATION_CODE_MAX_LENGTH = 64;

const CODE = /^[a-z][a-z0-9_.-]*$/;

/**
 * True when `value` is a valid invocation rule identifier or denial reason code: a lower-case ASCII
 * letter, then lower-case letters, digits, `_`, `.` or `-`, at most 64 characters in all
 * (`notes.max_deletions`, `outside_folder`). Such codes are stable, bounded and safe to log: they
 * can never carry an argument value or an exception's text.
 *
 * @example
 * isInvocationCode('outside_site'); // true
 * isInvocationCode('Outside site'); // false
 */
export function isInvocationCode(value: unknown): value is string {
  return typeof value === 'string' && value.length <= INVOCATION_CODE_MAX_LENGTH && CODE.test(value);
}
