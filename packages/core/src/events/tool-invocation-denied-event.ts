import type { ToolContext } from '../context/tool-context.js';
import type { InvocationTarget } from '../invocation/invocation-target.js';

/**
 * Dispatched as `tool.invocation_denied` (payload `{ event }`) when an invocation rule or a target
 * resolver refuses a call: whether *this* call, with its arguments, target and run history, may
 * proceed. It carries the rule's identifier and reason code — never arguments, results or
 * exception text.
 */
export class ToolInvocationDeniedEvent {
  /** The tool's name. */
  readonly name: string;
  /** The caller's context (acting principal, initiating actor, run). */
  readonly context: ToolContext;
  /** The identifier of the rule that denied; null when target resolution refused the call. */
  readonly rule: string | null;
  /** The reason code (`too_many_deletions`, `rule_failed`, `history_incomplete`, `target_conflict`, …). */
  readonly reason: string;
  /** The call's target reference, when one was resolved. */
  readonly target: InvocationTarget | null;

  /** Built by the registry when a rule or target resolver refuses a call. */
  constructor(name: string, context: ToolContext, rule: string | null, reason: string, target: InvocationTarget | null) {
    this.name = name;
    this.context = context;
    this.rule = rule;
    this.reason = reason;
    this.target = target;
    Object.freeze(this);
  }
}
