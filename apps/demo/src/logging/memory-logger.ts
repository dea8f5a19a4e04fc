import type { LogContext, LogLevel, Logger } from '@milpa/core';

/** One line a {@link MemoryLogger} received. */
export interface LogEntry {
  /** The level it was written at. */
  readonly level: LogLevel;
  /** The human-readable message (for audit lines, the `[ToolAudit] …` text). */
  readonly message: string;
  /** The structured context (for audit lines, `{ audit: ToolAuditRecord }`). */
  readonly context: LogContext;
}

/** Options of {@link MemoryLogger}. */
export interface MemoryLoggerOptions {
  /** The lowest level kept; lower levels are reported as disabled, so the runtime skips building them. Default `'info'`. */
  readonly level?: LogLevel;
  /** Called with every kept entry as it arrives (e.g. to stream audit lines to stderr). */
  readonly onEntry?: (entry: LogEntry) => void;
}

const RANK: Readonly<Record<LogLevel, number>> = Object.freeze({ debug: 10, info: 20, warn: 30, error: 40 });

/** Marks the audit lines the runtime writes. */
const AUDIT_PREFIX = '[ToolAudit]';

/**
 * A {@link Logger} that keeps what it is told in memory, so the tour can print the audit lines its
 * own calls produced and the CLI can show them on request. Nothing is written anywhere unless
 * `onEntry` does it.
 *
 * @example
 * const logger = new MemoryLogger();
 * const registry = new ToolRegistry({ logger });
 * await registry.call('list_notes', {}, ToolContext.cli());
 * logger.auditLines(); // ['[ToolAudit] … | cli | list_notes | cli | 0ms | OK | args={}']
 */
export class MemoryLogger implements Logger {
  readonly #entries: LogEntry[] = [];
  readonly #minimum: number;
  readonly #onEntry: ((entry: LogEntry) => void) | null;

  /** Keeps lines at `options.level` (default `'info'`) and above. */
  constructor(options: MemoryLoggerOptions = {}) {
    this.#minimum = RANK[options.level ?? 'info'];
    this.#onEntry = options.onEntry ?? null;
  }

  /** Keeps a debug line when debug is enabled. */
  debug(context: LogContext, message: string): void {
    this.#keep('debug', context, message);
  }

  /** Keeps an info line. */
  info(context: LogContext, message: string): void {
    this.#keep('info', context, message);
  }

  /** Keeps a warning. */
  warn(context: LogContext, message: string): void {
    this.#keep('warn', context, message);
  }

  /** Keeps an error line. */
  error(context: LogContext, message: string): void {
    this.#keep('error', context, message);
  }

  /** True for the configured level and above. */
  isLevelEnabled(level: LogLevel): boolean {
    return RANK[level] >= this.#minimum;
  }

  /** Every kept entry, oldest first. */
  entries(): readonly LogEntry[] {
    return [...this.#entries];
  }

  /** The messages of the audit lines (`[ToolAudit] …`), oldest first. */
  auditLines(): string[] {
    return this.#entries.filter((entry) => entry.message.startsWith(AUDIT_PREFIX)).map((entry) => entry.message);
  }

  #keep(level: LogLevel, context: LogContext, message: string): void {
    if (!this.isLevelEnabled(level)) return;
    const entry: LogEntry = Object.freeze({ level, message: String(message), context });
    this.#entries.push(entry);
    this.#onEntry?.(entry);
  }
}
