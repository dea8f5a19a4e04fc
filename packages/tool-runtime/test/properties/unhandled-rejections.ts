import { afterEach, beforeEach } from 'vitest';

/**
 * Collects the promise rejections nobody handled while each test of the calling file runs (by
 * Node's default one would end the process), and returns a function that gives Node a moment to
 * report them and then returns them. Call it at the top of a `describe`.
 */
export function trackUnhandledRejections(): () => Promise<unknown[]> {
  const unhandled: unknown[] = [];
  const collect = (reason: unknown): void => {
    unhandled.push(reason);
  };
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', collect);
  });
  afterEach(() => {
    process.off('unhandledRejection', collect);
  });
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return [...unhandled];
  };
}
