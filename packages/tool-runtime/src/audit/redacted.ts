/** The value that replaces a secret in logs, audit records and runtime-written messages. */
export const REDACTED = '***REDACTED***';
