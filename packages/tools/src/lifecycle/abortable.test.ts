import { describe, expect, it } from 'vitest';
import { abortable } from './abortable.js';

describe('abortable', () => {
  it('answers as the promise does when the signal never aborts, and without a signal', async () => {
    await expect(abortable(Promise.resolve(7), new AbortController().signal)).resolves.toBe(7);
    await expect(abortable(Promise.reject(new Error('no')), new AbortController().signal)).rejects.toThrow('no');
    const promise = Promise.resolve(1);
    expect(abortable(promise, undefined)).toBe(promise);
  });

  it('rejects with the reason as soon as the signal aborts, or at once when it already has', async () => {
    const controller = new AbortController();
    const never = new Promise<number>(() => undefined);
    const pending = abortable(never, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    await expect(abortable(never, AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });

  it('stops listening once the promise settles', async () => {
    const controller = new AbortController();
    let listeners = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners += 1;
      add(...args);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      listeners -= 1;
      remove(...args);
    }) as typeof signal.removeEventListener;
    await abortable(Promise.resolve('done'), signal);
    expect(listeners).toBe(0);
  });
});
