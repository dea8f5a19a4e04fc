import { MilpaError } from '@milpa/core';

const WINDOW_MS = 60_000;

/** The verdict of {@link InitializeRateLimiter.take}. */
export type InitializeRateVerdict = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

/**
 * Counts `initialize` requests per client address in fixed one-minute windows and refuses those
 * over the limit. Memory is bounded: at most `maxTrackedAddresses` addresses are tracked; when a new
 * address arrives at the bound, the address tracked longest is forgotten first (an attacker with
 * that many addresses gains nothing from reusing one).
 */
export class InitializeRateLimiter {
  readonly #limit: number;
  readonly #maxTracked: number;
  readonly #windows = new Map<string, { start: number; count: number }>();

  /** @throws MilpaError `INVALID_ARGUMENT` for a limit that is not a positive integer. */
  constructor(limitPerMinute: number, maxTrackedAddresses = 10_000, optionName = 'maxInitializePerMinute') {
    if (!Number.isInteger(limitPerMinute) || limitPerMinute <= 0) {
      throw new MilpaError(`serveHttp option ${optionName} must be a positive integer, got ${String(limitPerMinute)}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    this.#limit = limitPerMinute;
    this.#maxTracked = maxTrackedAddresses;
  }

  /** The number of addresses currently tracked. */
  get trackedAddresses(): number {
    return this.#windows.size;
  }

  /** Counts one `initialize` from `address` at `now`; refused when the address is over its limit. */
  take(address: string, now: number): InitializeRateVerdict {
    const window = this.#windows.get(address);
    if (window === undefined || now - window.start >= WINDOW_MS) {
      this.#windows.delete(address);
      if (this.#windows.size >= this.#maxTracked) this.#forgetOldest(now);
      this.#windows.set(address, { start: now, count: 1 });
      return { ok: true };
    }
    if (window.count >= this.#limit) {
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000)) };
    }
    window.count += 1;
    return { ok: true };
  }

  /**
   * Drops expired windows, then, if still at the bound, the oldest one. Windows sit in the map in the
   * order they started (a new window is deleted and re-inserted), so the expired ones come first.
   */
  #forgetOldest(now: number): void {
    for (const [address, window] of this.#windows) {
      if (now - window.start < WINDOW_MS) break;
      this.#windows.delete(address);
    }
    if (this.#windows.size >= this.#maxTracked) {
      const oldest = this.#windows.keys().next();
      if (oldest.done !== true) this.#windows.delete(oldest.value);
    }
  }
}
