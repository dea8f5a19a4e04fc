import { MilpaError } from '@milpa/core';

/**
 * Thrown by `UpstreamConnection.callTool` when the upstream is not connected (starting,
 * restarting after a failure, or closed): nothing was sent. Code `UPSTREAM_UNAVAILABLE`.
 */
export class UpstreamUnavailableError extends MilpaError {
  /** The upstream's name. */
  readonly upstream: string;
  /** Milliseconds until the next connection attempt, or null when none is planned (closed). */
  readonly retryAfterMs: number | null;

  constructor(upstream: string, retryAfterMs: number | null) {
    super(
      retryAfterMs === null
        ? `Upstream '${upstream}' is closed.`
        : `Upstream '${upstream}' is unavailable; the gateway is reconnecting ` +
            `(next attempt in about ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s).`,
      { code: 'UPSTREAM_UNAVAILABLE' },
    );
    this.upstream = upstream;
    this.retryAfterMs = retryAfterMs;
  }
}
