import type { LogContext, Logger } from '@milpa/core';

/** The registry's structured audit records, and the logger that collects them. */
export interface AuditLog {
  /** Give this to the registry. */
  readonly logger: Logger;
  /** Every `{ audit }` record logged so far, in order. */
  readonly records: Record<string, unknown>[];
  /** The records of the calls with request id `requestId`. */
  forRequest(requestId: string): Record<string, unknown>[];
}

/** A fresh {@link AuditLog}. */
export function auditLog(): AuditLog {
  const records: Record<string, unknown>[] = [];
  const keep = (context: LogContext): void => {
    const { audit } = context as { audit?: Record<string, unknown> };
    if (audit !== undefined) records.push(audit);
  };
  return {
    logger: { debug: () => undefined, info: keep, warn: keep, error: keep },
    records,
    forRequest: (requestId) => records.filter((record) => record['request_id'] === requestId),
  };
}
