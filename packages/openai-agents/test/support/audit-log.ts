import type { Logger } from '@milpa/core';

/** A registry logger that keeps only the structured audit records, and asks about them. */
export interface AuditLog extends Logger {
  /** Every audit record, in the order written. */
  readonly records: Record<string, unknown>[];
  /** The audit records of one request id. */
  forRequest(requestId: string): Record<string, unknown>[];
}

/** An {@link AuditLog}: the registry passes each call's record as `{ audit }` with its log line. */
export function auditLog(): AuditLog {
  const records: Record<string, unknown>[] = [];
  const keep = (context: Record<string, unknown>): void => {
    if (typeof context['audit'] === 'object' && context['audit'] !== null) records.push(context['audit'] as Record<string, unknown>);
  };
  return {
    records,
    debug: keep,
    info: keep,
    warn: keep,
    error: keep,
    forRequest: (requestId) => records.filter((record) => record['request_id'] === requestId),
  };
}
