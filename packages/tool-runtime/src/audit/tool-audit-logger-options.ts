import type { JsonSchema, TSchema } from '@milpa/core';
import type { Redactor } from './redactor.js';

/** Options of {@link ToolAuditLogger}. */
export interface ToolAuditLoggerOptions {
  /** The redactor to use (default: a new one with the default sensitive fields). */
  readonly redactor?: Redactor;
  /** The input schema of a tool, so properties marked `writeOnly` / `x-milpa-secret` are redacted too. */
  readonly schemaOf?: (toolName: string) => JsonSchema | TSchema | null;
}
