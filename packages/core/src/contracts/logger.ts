/** Structured fields attached to a log line. */
export type LogContext = Record<string, unknown>;

/**
 * The logging contract Milpa writes to: structured context first, then the human-readable
 * message — pino's calling convention. A pino logger and the global `console` both satisfy it
 * with no glue.
 *
 * @example
 * const registry = new ToolRegistry({ logger: pino() });      // structured JSON lines
 * const registry2 = new ToolRegistry({ logger: console });    // plain console output
 */
export interface Logger {
  /** Diagnostic detail. */
  debug(context: LogContext, message: string): void;
  /** Normal operation (an audited successful call). */
  info(context: LogContext, message: string): void;
  /** Something refused or unusual (a denial, an unknown channel). */
  warn(context: LogContext, message: string): void;
  /** A failure (a handler threw). */
  error(context: LogContext, message: string): void;
  /**
   * Optional: whether lines at `level` are written at all. When present and false, Milpa skips
   * building the line (pino provides it; for `console` every level counts as enabled).
   */
  isLevelEnabled?(level: LogLevel): boolean;
}

/** The levels of the {@link Logger} contract. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const ignore = (): void => undefined;

/** A logger that discards everything. */
export const silentLogger: Logger = Object.freeze({
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
  isLevelEnabled: () => false,
});
