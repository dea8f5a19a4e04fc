import type { ToolContext } from '../context/tool-context.js';
import type { AnyToolDefinition, ToolArgs } from '../tools/tool-definition.js';
import type { InvocationDecision } from './invocation-decision.js';
import type { InvocationHistory } from './invocation-history.js';
import type { InvocationTarget } from './invocation-target.js';

/**
 * One call as a target resolver sees it: after validation and authorization, with the arguments
 * that will execute.
 */
export interface InvocationRequest {
  /** The tool's name. */
  readonly toolName: string;
  /** The final arguments: validated, clamped, deeply frozen — exactly what the handler will get. */
  readonly arguments: ToolArgs;
  /** The tool's configuration (scopes, mutating, confirmation, timeout, schema). */
  readonly definition: AnyToolDefinition;
  /**
   * Whether this call mutates: the tool's flag, or its per-call function's answer for these
   * arguments, asked once per call (a throw or non-boolean answer counts as mutating). Read this
   * rather than `definition.mutating`, which may be a function.
   */
  readonly mutating: boolean;
  /** Who is calling: the acting `principal`, the initiating `actor`, the `runId`, the channel. */
  readonly context: ToolContext;
}

/** One call as an invocation rule sees it: the request, its resolved target and its run's history. */
export interface Invocation extends InvocationRequest {
  /** What the call acts on, as the host's target resolvers name it; null when none claimed it. */
  readonly target: InvocationTarget | null;
  /**
   * The run's earlier calls, whether that list is complete, and the calls of the run that took
   * their place before this one and are still in flight (`history.inFlight`, counted by `count`
   * and `some`), so a limit holds when a model makes calls in parallel.
   */
  readonly history: InvocationHistory;
}

/**
 * A host rule over one call: its final arguments, actor, target and the run's history ("no more
 * than three deletions per run", "only pages inside the caller's own site", "never refund the same
 * order twice"). Rules run after authorization, in registration order, until one denies.
 *
 * A rule that throws, rejects or answers anything but an {@link InvocationDecision} refuses the
 * call with the reason `rule_failed`. Denials carry the rule's identifier and reason code only:
 * never arguments, results or exception text.
 *
 * @example
 * const maxDeletions: InvocationRule = {
 *   identifier: 'notes.max_deletions_per_run',
 *   requiresCompleteHistory: true,
 *   tools: ['delete_note'],
 *   evaluate: ({ history }) =>
 *     history.count({ tool: 'delete_note', outcome: 'executed' }) >= 3
 *       ? InvocationDecision.deny('too_many_deletions')
 *       : InvocationDecision.allow(),
 * };
 */
export interface InvocationRule {
  /**
   * A unique, stable code: a lower-case ASCII letter, then lower-case letters, digits, `_`, `.` or
   * `-`, at most 64 characters. Checked when the rule is registered.
   */
  readonly identifier: string;
  /**
   * True when the rule can only decide on a run's full history (counting, "never twice"): the call
   * is then refused, reason `history_incomplete`, whenever the history cannot be proven complete.
   */
  readonly requiresCompleteHistory?: boolean;
  /** When given, the rule is evaluated only for calls of these tools; otherwise for every call. */
  readonly tools?: readonly string[];
  /** Decides one call. May be async; the caller's abort refuses the call while it waits. */
  evaluate(invocation: Invocation): InvocationDecision | PromiseLike<InvocationDecision>;
}

/**
 * Names what a call acts on, for rules and for the run's history. Answer `null` for calls the
 * resolver does not understand. Two resolvers claiming one call, or a resolver that throws or
 * answers a malformed target, refuse the call.
 *
 * @example
 * const noteTarget: TargetResolver = {
 *   resolve: ({ toolName, arguments: args }) =>
 *     toolName.endsWith('_note') && typeof args['id'] === 'string' ? invocationTarget('note', args['id']) : null,
 * };
 */
export interface TargetResolver {
  /** The call's target, or null when this resolver does not claim the call. May be async. */
  resolve(request: InvocationRequest): InvocationTarget | null | PromiseLike<InvocationTarget | null>;
}
