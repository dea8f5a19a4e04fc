/** Settings of a {@link RestartBackoff}. */
export interface RestartBackoffOptions {
  /** The first delay, in milliseconds. */
  readonly initialDelayMs: number;
  /** The longest delay, in milliseconds. */
  readonly maxDelayMs: number;
}

/**
 * Exponential backoff between restart attempts: the first attempt waits `initialDelayMs`, each
 * failed one doubles the wait up to `maxDelayMs`, and a success starts over.
 *
 * @example
 * const backoff = new RestartBackoff({ initialDelayMs: 500, maxDelayMs: 30_000 });
 * backoff.next(); // 500, then 1000, 2000, … 30000
 */
export class RestartBackoff {
  readonly #options: RestartBackoffOptions;
  #attempt = 0;

  constructor(options: RestartBackoffOptions) {
    this.#options = options;
  }

  /** The delay before the next attempt; each call counts one more failed attempt. */
  next(): number {
    const delay = Math.min(this.#options.maxDelayMs, this.#options.initialDelayMs * 2 ** Math.min(this.#attempt, 30));
    this.#attempt++;
    return delay;
  }

  /** Starts over after a success. */
  reset(): void {
    this.#attempt = 0;
  }
}
