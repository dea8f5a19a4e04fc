import { clipText, messageOf as kitMessageOf } from '@milpa/core/kit';
/** True for anything with a `then` method: the runner treats it as an answer that is not there yet. */
export function isPromiseLike<T>(value: unknown): value is PromiseLike<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** A plain object that can hold named arguments (not null, not an array). */
export function isPlainArgs(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A tool name as text for messages, meta and logs, without ever throwing (a hostile caller may pass
 * anything), cut to 200 characters with its length noted: no registered name is longer than 128, so
 * a longer one names no tool, and a 4 MB name never becomes a 4 MB log line.
 */
export function nameOf(name: unknown): string {
  if (typeof name === 'string') return clipText(name);
  try {
    return clipText(String(name));
  } catch {
    return `[unprintable ${typeof name}]`;
  }
}

/** The message of anything thrown, without ever throwing itself (`Unknown error` when it cannot be printed). */
export function messageOf(error: unknown): string {
  return kitMessageOf(error, 'Unknown error');
}

/** Sentinel rejection of {@link untilCallerAborts}. */
export const CALLER_ABORTED: unique symbol = Symbol('milpa.callerAborted');

/**
 * `pending`, or a rejection with {@link CALLER_ABORTED} as soon as the caller's signal aborts, so a
 * collaborator that never answers cannot hold a call the caller gave up on. Without a signal it is
 * `pending` itself (no extra promise, no listener).
 */
export function untilCallerAborts<T>(pending: PromiseLike<T>, signal: AbortSignal | undefined): PromiseLike<T> {
  if (signal === undefined) return pending;
  if (signal.aborted) {
    // Observe the abandoned promise so its eventual rejection is never unhandled.
    Promise.resolve(pending).catch(() => undefined);
    return Promise.reject(CALLER_ABORTED);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(CALLER_ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(pending).then(
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
