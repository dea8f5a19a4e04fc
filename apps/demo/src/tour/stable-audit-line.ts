/** The duration field of an audit line: the first `| {n}ms |` followed by the status and the args. */
const AUDIT_DURATION = / \| \d+ms \| (?=(?:OK|ERROR:[^|]*) \| args=)/;

/**
 * An audit line with its duration replaced by `…ms`, so the tour's transcript is stable.
 *
 * @example
 * stableAuditLine('[ToolAudit] r1 | cli | list_notes | cli | 3ms | OK | args={}');
 * // '[ToolAudit] r1 | cli | list_notes | cli | …ms | OK | args={}'
 */
export function stableAuditLine(line: string): string {
  return line.replace(AUDIT_DURATION, ' | …ms | ');
}
