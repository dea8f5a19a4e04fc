/**
 * The text of a thrown value: an `Error`'s message, a string as it is, anything else converted
 * without throwing: a value whose conversion (or whose `message` getter) throws reads as `unprintable`
 * (`an unprintable value` unless given).
 *
 * @example
 * messageOf(new Error('disk full')); // 'disk full'
 */
export function messageOf(error: unknown, unprintable = 'an unprintable value'): string {
  try {
    if (error instanceof Error) return String(error.message);
    if (typeof error === 'string') return error;
    return String(error);
  } catch {
    return unprintable;
  }
}
