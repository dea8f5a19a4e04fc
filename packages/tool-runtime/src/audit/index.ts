// @milpa/tool-runtime/audit: the audit trail and redaction. The audit logger and the records it writes,
// and the redactor every sink goes through (secret names, schema markers and value shapes).

export { Redactor, REDACTED, DEFAULT_SENSITIVE_FIELDS, type RedactorOptions } from './redactor.js';
export type { AuditOutcome, ResultPartSizes, ToolAuditRecord } from './tool-audit-record.js';
export { ToolAuditLogger, type ToolAuditLoggerOptions } from './tool-audit-logger.js';
