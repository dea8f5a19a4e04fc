/**
 * A one-line description of anything that was thrown: an `Error`'s message, a string as is, any
 * other value through `String()`. Never throws, even for values whose `toString` or `message`
 * getter throws, so it is safe inside fail-closed and logging paths.
 */
export function describeError(error: unknown): string {
  try {
    if (error instanceof Error) return error.message === '' ? error.name : error.message;
    if (typeof error === 'string') return error;
    if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
      return (error as { message: string }).message;
    }
    return String(error);
  } catch {
    return 'an unprintable value was thrown';
  }
}
