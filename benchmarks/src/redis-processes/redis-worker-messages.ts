/** What the parent tells a Redis worker process. */
export type WorkerRequest =
  /** Call the throughput registry from `concurrency` loops, from `startAt` (epoch ms) for `durationMs`. */
  | { readonly type: 'run'; readonly startAt: number; readonly durationMs: number; readonly concurrency: number }
  /** Make `calls` calls on the small-budget registry, from `concurrency` loops, starting at `startAt`. */
  | { readonly type: 'spend'; readonly startAt: number; readonly calls: number; readonly concurrency: number }
  /** Call the throughput registry once with each of `keys` as idempotency key, in order, starting at `startAt`. */
  | { readonly type: 'claim'; readonly startAt: number; readonly keys: readonly string[]; readonly concurrency: number }
  | { readonly type: 'close' };

/** A worker's figures over one `run` window. */
export interface RunWindow {
  /** Calls that returned the tool's result. */
  readonly succeeded: number;
  /** Calls that did not (there should be none). */
  readonly failed: number;
  /** The first failure's code and message, when there was one. */
  readonly firstFailure: string | null;
  /** Wall time from the first call's start to the last call's end, ms. */
  readonly wallMs: number;
  /** User + system CPU of the whole worker process over the window, µs. */
  readonly cpuMicros: number;
  /** Audit lines the worker's pino stream received over the window. */
  readonly lines: number;
}

/** What a worker's calls under the small budget returned. */
export interface SpendOutcome {
  /** Calls that ran. */
  readonly succeeded: number;
  /** Calls refused with `RATE_LIMITED`. */
  readonly rateLimited: number;
  /** Any other outcome, by code. */
  readonly other: Readonly<Record<string, number>>;
  /** Wall time of the phase, ms. */
  readonly wallMs: number;
}

/** What a worker's calls with shared idempotency keys returned. */
export interface ClaimOutcome {
  /** Times the handler ran in this worker. */
  readonly handlerRuns: number;
  /** Calls answered with the tool's result, run here or replayed. */
  readonly succeeded: number;
  /** Of those, replays (`meta.idempotent_replay`). */
  readonly replayed: number;
  /** Any other outcome, by code. */
  readonly other: Readonly<Record<string, number>>;
}

/** What a Redis worker process tells the parent. */
export type WorkerReply =
  | { readonly type: 'ready' }
  | { readonly type: 'ran'; readonly window: RunWindow }
  | { readonly type: 'spent'; readonly outcome: SpendOutcome }
  | { readonly type: 'claimed'; readonly outcome: ClaimOutcome }
  | { readonly type: 'failed'; readonly message: string };
