import {
  InvocationDecision,
  InvocationHistory,
  isInvocationTarget,
  type Invocation,
  type InvocationRequest,
  type InvocationTarget,
  type TargetResolver,
} from '@milpa/core';
import type { CheckedRule } from '../invocation/invocation-rule-set.js';
import { isPromiseLike } from './settle.js';
import type { STOP, StageVerdict, ValidatedCall } from './stage.js';

/** Reason code of a rule that threw, rejected, or answered something that is not a decision. */
export const RULE_FAILED = 'rule_failed';
/** Reason code of a rule that needs a complete history on a run that cannot prove one. */
export const HISTORY_INCOMPLETE = 'history_incomplete';
/** Reason code of a call that two target resolvers claimed. */
export const TARGET_CONFLICT = 'target_conflict';
/** Reason code of a target resolver that threw, rejected or answered a malformed target. */
export const TARGET_FAILED = 'target_failed';

/** A target resolution that refuses the call. */
const FAILED: unique symbol = Symbol('milpa.targetFailed');
const CONFLICT: unique symbol = Symbol('milpa.targetConflict');
type Resolution = InvocationTarget | null | typeof FAILED | typeof CONFLICT;

/** The type of what was thrown, for a log line that must not carry the exception's text. */
function kindOf(error: unknown): string {
  if (error instanceof Error) return error.name;
  return error === null ? 'null' : typeof error;
}

function logRuleFailure(call: ValidatedCall, rule: string, error: unknown): void {
  call.services.safeLog(
    'error',
    { tool: call.toolName, rule, request_id: call.context.requestId, error_type: kindOf(error) },
    `[ToolRegistry] invocation rule '${rule}' failed (${kindOf(error)}); the call is refused as ${RULE_FAILED}`,
  );
}

function logResolverFailure(call: ValidatedCall, index: number, error: unknown): void {
  call.services.safeLog(
    'error',
    { tool: call.toolName, resolver: index, request_id: call.context.requestId, error_type: kindOf(error) },
    `[ToolRegistry] target resolver ${index} failed (${kindOf(error)}); the call is refused as ${TARGET_FAILED}`,
  );
}

/** One resolver's answer, checked: a target, null (not claimed) or FAILED. */
function checkedAnswer(call: ValidatedCall, index: number, answer: unknown): InvocationTarget | null | typeof FAILED {
  if (answer === null || answer === undefined) return null;
  if (isInvocationTarget(answer)) return Object.freeze({ kind: answer.kind, id: answer.id });
  logResolverFailure(call, index, new TypeError());
  return FAILED;
}

/** Folds one more answer into the resolution so far: two claims conflict. */
function fold(found: Resolution, next: InvocationTarget | null | typeof FAILED): Resolution {
  if (found === FAILED || next === FAILED) return FAILED;
  if (next === null) return found;
  // A target or an earlier conflict, plus one more claim: a conflict.
  if (found !== null) return CONFLICT;
  return next;
}

/**
 * Asks every resolver (all of them, so a conflict is always seen), synchronously until one
 * answers with a promise; the pending answers are then awaited together.
 */
function resolveTarget(
  call: ValidatedCall,
  resolvers: readonly TargetResolver[],
  request: InvocationRequest,
): Resolution | Promise<Resolution> {
  let found: Resolution = null;
  let pending: Promise<InvocationTarget | null | typeof FAILED>[] | null = null;
  for (let index = 0; index < resolvers.length; index++) {
    let answer: unknown;
    try {
      answer = (resolvers[index] as TargetResolver).resolve(request);
    } catch (error) {
      logResolverFailure(call, index, error);
      return FAILED;
    }
    // Stryker disable next-line ConditionalExpression: equivalent: a synchronous answer taken the asynchronous way gives the same
    // resolution, later.
    if (isPromiseLike(answer)) {
      const settled = Promise.resolve(answer).then(
        (value): InvocationTarget | null | typeof FAILED => checkedAnswer(call, index, value),
        (error: unknown): typeof FAILED => {
          logResolverFailure(call, index, error);
          return FAILED;
        },
      );
      (pending ??= []).push(settled);
      continue;
    }
    found = fold(found, checkedAnswer(call, index, answer));
  }
  if (pending === null) return found;
  const synchronous = found;
  return Promise.all(pending).then((answers) => answers.reduce<Resolution>(fold, synchronous));
}

/** A store's answer as a history; a store may hand back any object (a shared store deserializes it). */
function asHistory(value: object): InvocationHistory {
  // Stryker disable next-line ConditionalExpression: equivalent when false: a history rebuilt from its own observations, completeness and
  // calls in flight is the same history.
  if (value instanceof InvocationHistory) return value;
  const { observations, complete, inFlight } = value as { observations?: unknown; complete?: unknown; inFlight?: unknown };
  if (!Array.isArray(observations) || (inFlight !== undefined && !Array.isArray(inFlight))) {
    throw new TypeError('the history store answered a malformed history');
  }
  return new InvocationHistory(observations, complete === true, inFlight ?? []);
}

/** Runs the rules from `index` on, in order, until one denies. */
function runRules(
  call: ValidatedCall,
  rules: readonly CheckedRule[],
  invocation: Invocation,
  index: number,
): undefined | typeof STOP | Promise<undefined | typeof STOP> {
  for (let at = index; at < rules.length; at++) {
    const checked = rules[at] as CheckedRule;
    if (checked.requiresCompleteHistory && !invocation.history.complete) return call.denyInvocation(checked.identifier, HISTORY_INCOMPLETE);
    let decision: unknown;
    try {
      decision = checked.rule.evaluate(invocation);
    } catch (error) {
      logRuleFailure(call, checked.identifier, error);
      return call.denyInvocation(checked.identifier, RULE_FAILED);
    }
    // Stryker disable next-line ConditionalExpression: equivalent: a synchronous decision taken the asynchronous way is the same decision,
    // later.
    if (isPromiseLike(decision)) {
      return Promise.resolve(decision).then(
        (answer) => {
          const verdict = decide(call, checked, answer);
          return verdict === undefined ? runRules(call, rules, invocation, at + 1) : verdict;
        },
        (error: unknown) => {
          logRuleFailure(call, checked.identifier, error);
          return call.denyInvocation(checked.identifier, RULE_FAILED);
        },
      );
    }
    const verdict = decide(call, checked, decision);
    if (verdict !== undefined) return verdict;
  }
  return undefined;
}

/** One rule's answer: go on, deny with its reason, or `rule_failed` for anything but a decision. */
function decide(call: ValidatedCall, checked: CheckedRule, answer: unknown): undefined | typeof STOP {
  if (!InvocationDecision.isInvocationDecision(answer)) {
    // Only the error's type is ever logged: an answer that is not a decision is a type error.
    logRuleFailure(call, checked.identifier, new TypeError());
    return call.denyInvocation(checked.identifier, RULE_FAILED);
  }
  if (answer.allowed) return undefined;
  const reason = answer.reason as string;
  call.services.safeLog(
    'warn',
    { tool: call.toolName, rule: checked.identifier, reason, request_id: call.context.requestId, run_id: call.context.runId },
    `[ToolRegistry] invocation rule '${checked.identifier}' denied '${call.toolName}' (reason: ${reason})`,
  );
  return call.denyInvocation(checked.identifier, reason);
}

/** A store's reservation, checked; a store may hand back any object (a shared store deserializes it). */
function asReservation(value: unknown): { readonly id: string; readonly history: InvocationHistory } {
  const { id, history } = (typeof value === 'object' && value !== null ? value : {}) as { id?: unknown; history?: unknown };
  if (typeof id !== 'string' || id === '' || typeof history !== 'object' || history === null) {
    throw new TypeError('the history store answered a malformed reservation');
  }
  return { id, history: asHistory(history) };
}

/**
 * Takes the call's place in its run's history, then runs the rules over the history up to that
 * place. The place is taken before any rule runs, in one atomic step of the store, so every call
 * of the run that overlaps this one is either ahead of it (and in its history, in flight) or
 * behind it (and sees this call in flight): a limit holds however many calls run in parallel, in
 * however many processes. The history stage settles the place when the call ends, whatever the
 * outcome; a place whose call never ends is released by its lease.
 */
function reserveThenRun(
  call: ValidatedCall,
  runId: string,
  rules: readonly CheckedRule[],
  request: InvocationRequest,
  target: InvocationTarget | null,
): StageVerdict {
  const set = call.services.invocation;
  const reserved = set.store.reserve(runId, Object.freeze({ tool: request.toolName, target }), set.leaseMs);
  const run = (history: InvocationHistory): undefined | typeof STOP | Promise<undefined | typeof STOP> =>
    // Stryker disable next-line ConditionalExpression: equivalent: running no rule answers undefined too; this only skips the work.
    rules.length === 0 ? undefined : runRules(call, rules, Object.freeze({ ...request, target, history }), 0);
  // Stryker disable next-line ConditionalExpression: equivalent when true: a synchronous place taken the asynchronous way is the same
  // place, settled the same way, later.
  if (isPromiseLike(reserved)) {
    const checked = Promise.resolve(reserved).then(asReservation);
    // Set before waiting, so the history stage settles the place even when the caller aborts meanwhile.
    call.reservation = checked.then(
      (reservation) => reservation.id,
      () => null,
    );
    return checked.then((reservation) => run(reservation.history));
  }
  const reservation = asReservation(reserved);
  call.reservation = reservation.id;
  return run(reservation.history);
}

function withTarget(call: ValidatedCall, rules: readonly CheckedRule[], request: InvocationRequest, resolution: Resolution): StageVerdict {
  if (resolution === FAILED) return call.denyInvocation(null, TARGET_FAILED);
  if (resolution === CONFLICT) return call.denyInvocation(null, TARGET_CONFLICT);
  call.target = resolution;
  const runId = call.context.runId;
  // A call outside any run has no history to take a place in: its rules see an unknown (incomplete) one.
  if (runId === null)
    // Stryker disable next-line ConditionalExpression: equivalent: running no rule answers undefined too; this only skips the work.
    return rules.length === 0
      ? undefined
      : runRules(call, rules, Object.freeze({ ...request, target: resolution, history: InvocationHistory.unknown() }), 0);
  // A registry without rules records a run's calls when they end, and takes no place.
  if (call.services.invocation.rules.length === 0) return undefined;
  return reserveThenRun(call, runId, rules, request, resolution);
}

/**
 * The invocation rules over this call's final arguments: resolves the target (when a rule applies
 * or the call belongs to a run, whose history records it), takes the call's place in its run's
 * history (when the call belongs to a run and the registry has any rule — a rule of another tool
 * may count this call), then runs the rules that apply to the tool, in registration order, until
 * one denies, over the history up to that place. Without a run the history is unknown (and
 * incomplete). Synchronous unless a resolver, the store or a rule answers with a promise. No
 * rules and no run: nothing happens.
 */
export function evaluateInvocation(call: ValidatedCall): StageVerdict {
  const set = call.services.invocation;
  const definition = call.entry.definition;
  const rules = set.rulesFor(definition.name);
  const resolvers = set.resolvers;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent when the resolver count is ignored: asking no resolver
  // finds no target, as not asking does.
  const needsTarget = resolvers.length > 0 && (rules.length > 0 || call.context.runId !== null);
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: equivalent: with no rule for the tool, no target to
  // find and no place to take, the full path resolves nothing, takes no place and runs no rule; this only skips the work.
  if (rules.length === 0 && !needsTarget && (call.context.runId === null || set.rules.length === 0)) return undefined;
  const request: InvocationRequest = Object.freeze({
    toolName: definition.name,
    arguments: call.args,
    definition,
    mutating: call.mutating,
    context: call.context,
  });
  const resolution = needsTarget ? resolveTarget(call, resolvers, request) : null;
  if (isPromiseLike(resolution)) return resolution.then((resolved) => withTarget(call, rules, request, resolved));
  return withTarget(call, rules, request, resolution);
}
