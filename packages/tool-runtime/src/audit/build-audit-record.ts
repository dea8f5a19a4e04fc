import type { ToolContext } from '@milpa/core';
import { wholeMs } from './audit-line-format.js';
import type { AuditOutcome, ResultPartSizes, ToolAuditRecord } from './tool-audit-record.js';

/** The optional fields of an audit record, as the audit logger's outcome methods pass them. */
export interface AuditRecordExtra {
  /** Why the call ended so (already scrubbed of secrets). */
  readonly reason?: string;
  /** The invocation rule that decided, if any. */
  readonly rule?: string | null;
  /** The run the call belongs to, if any. */
  readonly run_id?: string | null;
  /** The validation errors, for a call that failed validation. */
  readonly errors?: readonly string[];
  /** The size of the output, when known. */
  readonly output_size?: number | null;
  /** True when the result was replayed rather than run. */
  readonly cache_served?: boolean;
  /** True when the result was cut to the result cap. */
  readonly truncated?: boolean;
  /** The sizes of the result's parts before the cap cut it. */
  readonly original_sizes?: ResultPartSizes;
}

/**
 * One frozen audit record: who called which tool, with what (already redacted) arguments, how it
 * ended and how long it took.
 * @internal
 */
export function buildAuditRecord(
  outcome: AuditOutcome,
  code: string | null,
  context: ToolContext,
  tool: string,
  redactedArgs: unknown,
  tookMs: unknown,
  extra: AuditRecordExtra,
): ToolAuditRecord {
  const { cache_served: cacheServed, ...optional } = extra;
  const record: ToolAuditRecord = {
    outcome,
    code,
    tool,
    request_id: context.requestId,
    channel: context.channel,
    principal: context.principal,
    ip: context.ip ?? null,
    took_ms: wholeMs(tookMs),
    args: redactedArgs,
    cache_served: cacheServed === true,
  };
  // Object.assign onto the literal, not a spread into it: V8 freezes a spread copy on a slow path
  // that costs more than building the whole record.
  return Object.freeze(Object.assign(record, optional));
}
