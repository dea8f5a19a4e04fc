import type { LogContext, Logger, LogLevel } from '@milpa/core';

/** One captured log line. */
export interface LoggedLine {
  readonly level: LogLevel;
  readonly message: string;
  readonly context: LogContext;
}

/** A Logger that records every line, for assertions. */
export class RecordingLogger implements Logger {
  readonly lines: LoggedLine[] = [];

  debug(context: LogContext, message: string): void {
    this.lines.push({ level: 'debug', message, context });
  }

  info(context: LogContext, message: string): void {
    this.lines.push({ level: 'info', message, context });
  }

  warn(context: LogContext, message: string): void {
    this.lines.push({ level: 'warn', message, context });
  }

  error(context: LogContext, message: string): void {
    this.lines.push({ level: 'error', message, context });
  }

  /** Messages, optionally of one level. */
  messages(level?: LogLevel): string[] {
    return this.lines.filter((line) => level === undefined || line.level === level).map((line) => line.message);
  }

  /** Lines whose message contains `text`. */
  matching(text: string): LoggedLine[] {
    return this.lines.filter((line) => line.message.includes(text));
  }

  /** Every audit record passed as `{ audit }` context. */
  auditRecords(): Record<string, unknown>[] {
    return this.lines
      .map((line) => line.context['audit'])
      .filter((record): record is Record<string, unknown> => typeof record === 'object' && record !== null);
  }

  /** Everything written, as one string (messages and JSON of contexts). */
  dump(): string {
    return this.lines.map((line) => `${line.message} ${safeJson(line.context)}`).join('\n');
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, inner: unknown) => (inner instanceof Error ? { message: inner.message } : inner));
  } catch {
    return '[unserializable]';
  }
}
