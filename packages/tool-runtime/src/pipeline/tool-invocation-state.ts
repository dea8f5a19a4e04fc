import type { ToolCaller, ToolContext, ToolInvocation } from '@milpa/core';

/**
 * The `{ context, signal, caller }` a handler receives. The AbortSignal is created lazily, on first
 * read of `signal`: most handlers never look at it, and an AbortController plus a deadline timer per
 * call would dominate the cost of a fast tool. When it is read it behaves exactly as if it had
 * existed from the start: already aborted if the deadline passed or the caller aborted, and armed to
 * abort at the deadline or on the caller's abort otherwise.
 */
export class ToolInvocationState implements ToolInvocation {
  readonly context: ToolContext;
  readonly caller: ToolCaller;
  readonly #deadline: number;
  readonly #timeoutMs: number;
  readonly #callerSignal: AbortSignal | undefined;
  #controller: AbortController | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #onCallerAbort: (() => void) | null = null;
  #finished = false;

  constructor(context: ToolContext, caller: ToolCaller, startedAt: number, timeoutMs: number, callerSignal: AbortSignal | undefined) {
    this.context = context;
    this.caller = caller;
    this.#timeoutMs = timeoutMs;
    this.#deadline = startedAt + timeoutMs;
    this.#callerSignal = callerSignal;
  }

  /** Aborted when the tool's deadline passes or the caller's own signal aborts. */
  get signal(): AbortSignal {
    return this.#ensureController().signal;
  }

  /** Aborts the signal now (a hard timeout fired). */
  abortForTimeout(): void {
    const controller = this.#ensureController();
    if (!controller.signal.aborted) controller.abort(this.#timeoutReason());
  }

  /** Releases the timer and the caller-signal listener once the call has settled. */
  finish(): void {
    this.#finished = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#onCallerAbort !== null) this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort);
    this.#onCallerAbort = null;
  }

  #timeoutReason(): DOMException {
    return new DOMException(`Tool deadline of ${this.#timeoutMs} ms exceeded`, 'TimeoutError');
  }

  #ensureController(): AbortController {
    if (this.#controller !== null) return this.#controller;
    const controller = new AbortController();
    this.#controller = controller;
    const callerSignal = this.#callerSignal;
    if (callerSignal?.aborted) {
      controller.abort(callerSignal.reason);
      return controller;
    }
    const remaining = this.#deadline - performance.now();
    if (remaining <= 0) {
      controller.abort(this.#timeoutReason());
      return controller;
    }
    if (this.#finished) return controller;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (!controller.signal.aborted) controller.abort(this.#timeoutReason());
    }, remaining);
    // Never keep a process alive just to abort a signal nobody may be waiting on.
    (this.#timer as { unref?: () => void }).unref?.();
    if (callerSignal !== undefined) {
      this.#onCallerAbort = () => {
        if (!controller.signal.aborted) controller.abort(callerSignal.reason);
      };
      callerSignal.addEventListener('abort', this.#onCallerAbort, { once: true });
    }
    return controller;
  }
}
