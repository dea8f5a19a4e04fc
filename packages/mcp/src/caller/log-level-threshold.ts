import type { CallerLogLevel } from '@milpa/core';

const SEVERITY: Readonly<Record<CallerLogLevel, number>> = Object.freeze({
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
});

/**
 * The minimum log level a client asked for with `logging/setLevel`, for one MCP connection. Until
 * the client sets one every level is sent, as the SDK's own server does.
 */
export class LogLevelThreshold {
  #minimum: number = SEVERITY.debug;

  /** True when `level` is a level MCP knows. */
  static isLevel(level: unknown): level is CallerLogLevel {
    return typeof level === 'string' && Object.hasOwn(SEVERITY, level);
  }

  /** Sets the minimum level; messages below it are no longer sent. */
  set(level: CallerLogLevel): void {
    this.#minimum = SEVERITY[level];
  }

  /** True when a message at `level` should reach the client. */
  allows(level: CallerLogLevel): boolean {
    return SEVERITY[level] >= this.#minimum;
  }
}
