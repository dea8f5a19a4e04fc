import { MilpaError } from '@milpa/core';
import type { ConsoleAuthorize } from '../console/approval-console-options.js';

/** What one approver may see and decide: held calls of these tools, under these policies. */
export interface ApproverRule {
  /** The tool names whose held calls the approver may see and decide; `'*'` for every tool. */
  readonly tools: readonly string[];
  /** The approval policies (`single`, `dual`, `quorum`, …) the approver may decide; omitted or `'*'` for every policy. */
  readonly policies?: readonly string[];
}

/** Principal → {@link ApproverRule}; a principal without an entry sees no approval at all. */
export type ApproverTable = Readonly<Record<string, ApproverRule>>;

function names(value: unknown, what: string, principal: string): ReadonlySet<string> {
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string' || name.trim() === '')) {
    throw new MilpaError(`The approver table entry of ${principal} needs ${what} as a list of names ('*' for any).`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return new Set(value.map((name: string) => name.trim()));
}

/**
 * An `authorize` for `createApprovalConsole` from a fixed table: an approver sees and decides a held
 * call when their entry lists its tool (or `'*'`) and, when the entry lists policies, its policy
 * (or `'*'`). A principal without an entry sees nothing; an empty list allows nothing.
 *
 * @throws MilpaError `INVALID_ARGUMENT` when an entry has no `tools` list, or a list holds something other than names.
 * @example
 * const authorize = authorizeByTable({
 *   'user:ana': { tools: ['print_note'] },
 *   'user:luis': { tools: ['*'], policies: ['dual'] },
 * });
 */
export function authorizeByTable(table: ApproverTable): ConsoleAuthorize {
  const rules = new Map<string, { tools: ReadonlySet<string>; policies: ReadonlySet<string> | null }>();
  for (const [principal, rule] of Object.entries(table ?? {})) {
    if (typeof rule !== 'object' || rule === null) {
      throw new MilpaError(`The approver table entry of ${principal} must be an object with tools.`, { code: 'INVALID_ARGUMENT' });
    }
    rules.set(principal.trim(), {
      tools: names(rule.tools, 'tools', principal),
      policies: rule.policies === undefined ? null : names(rule.policies, 'policies', principal),
    });
  }
  return (approver, item) => {
    // A Map, not the table object: a principal such as `__proto__` finds no inherited entry.
    const rule = rules.get(approver.principal);
    if (rule === undefined) return false;
    const toolAllowed = rule.tools.has('*') || rule.tools.has(item.tool);
    const policyAllowed = rule.policies === null || rule.policies.has('*') || rule.policies.has(item.policy);
    return toolAllowed && policyAllowed;
  };
}
