/**
 * `promise`, or a rejection with the signal's reason as soon as `signal` aborts (at once when it
 * already has), whichever comes first; the listener is removed when `promise` settles. Without a
 * signal, `promise` itself. The work behind `promise` is not stopped: the caller stops it.
 *
 * @example
 * const addresses = await abortable(dns.lookup(host, { all: true }), signal);
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
