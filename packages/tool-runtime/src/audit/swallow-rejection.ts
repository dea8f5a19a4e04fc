function ignore(): void {
  // Deliberately empty: the rejection is observed so that it is not unhandled, and nothing more.
}

/**
 * Observes `value` when it is a promise, so that its rejection is ignored instead of unhandled. A
 * `Logger` method is typed to return nothing, but an async one returns a promise, and when that
 * promise rejects (a log shipper offline) an unhandled rejection would end the host process by
 * Node's default. Logging is best effort; the process and the call outlive it.
 */
export function swallowRejection(value: unknown): void {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return;
  try {
    const then = (value as { then?: unknown }).then;
    if (typeof then === 'function') (then as (onFulfilled: undefined, onRejected: () => void) => unknown).call(value, undefined, ignore);
  } catch {
    // A thenable whose `then` throws has nothing left to reject.
  }
}
