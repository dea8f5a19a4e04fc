/**
 * The text of a thrown value: an `Error`'s message, a string as it is, anything else converted
 * without throwing (a value whose conversion throws reads as `an unprintable value`).
 *
 * @example
 * messageOf(new Error('disk full')); // 'disk full'
 */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return String(error);
  } catch {
    return 'an unprintable value';
  }
}
