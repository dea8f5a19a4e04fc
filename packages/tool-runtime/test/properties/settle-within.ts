/**
 * Resolves or rejects like `promise`, but rejects with a clear message when it has not settled
 * within `ms` real milliseconds: a property that must never hang fails instead of stalling the run.
 */
export function settleWithin<T>(promise: Promise<T>, ms: number, what = 'call()'): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(`${what} rejected with a non-Error (${typeof error})`));
      },
    );
  });
}

/** A logger that swallows everything (the dispatcher defaults to `console`, which would flood the test output). */
export const quietLogger = Object.freeze({
  debug(): void {},
  info(): void {},
  warn(): void {},
  error(): void {},
});
