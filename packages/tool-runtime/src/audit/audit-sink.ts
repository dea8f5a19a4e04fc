import { MilpaError, type Logger, type LogLevel } from '@milpa/core';
import { swallowRejection } from './swallow-rejection.js';
import type { ToolAuditRecord } from './tool-audit-record.js';

/** One audit line as written: the message and either the record (as `{ audit: record }`) or a whole logger context. */
export interface AuditLine {
  readonly message: string;
  readonly record?: ToolAuditRecord;
  readonly logContext?: Record<string, unknown>;
}

/** @throws MilpaError `INVALID_ARGUMENT` when `logger` lacks `info`, `warn` or `error`. */
export function assertAuditLogger(logger: Logger): void {
  if (
    typeof logger !== 'object' ||
    logger === null ||
    typeof logger.info !== 'function' ||
    typeof logger.warn !== 'function' ||
    typeof logger.error !== 'function'
  ) {
    throw new MilpaError('ToolAuditLogger needs a logger with info(), warn() and error().', { code: 'INVALID_ARGUMENT' });
  }
}

/** Whether `logger` writes `level`: true unless it says otherwise; false when asking throws. */
export function isAuditLevelEnabled(logger: Logger, level: LogLevel): boolean {
  try {
    return logger.isLevelEnabled?.(level) !== false;
  } catch {
    return false;
  }
}

/**
 * Builds and writes one line, unless the level is disabled. `build` runs only when the line will
 * be written, so a disabled level costs no redaction and no JSON. Never throws: a failing logger
 * (or an unreadable context) must never turn into a failed call.
 */
export function writeAuditLine(logger: Logger, level: LogLevel, build: () => AuditLine): void {
  try {
    if (!isAuditLevelEnabled(logger, level)) return;
    const line = build();
    swallowRejection(logger[level](line.logContext ?? { audit: line.record }, line.message));
  } catch {
    // Swallowed on purpose: see above.
  }
}
