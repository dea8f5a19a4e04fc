import { ToolErrorCode } from '@milpa/core';
import type { AuthorizationResult } from '../policy/authorization-result.js';
import { isPromiseLike } from './settle.js';
import type { STOP, StageVerdict, ResolvedCall } from './stage.js';

/** The collaborator a failed authorization names in its fail-closed message. */
export const POLICY_GATE = 'policy gate';

/** What happens once the caller is allowed: go on (`undefined`) or end the call (`STOP`). */
export type AuthorizedContinuation = () => undefined | typeof STOP;

const GO_ON: AuthorizedContinuation = () => undefined;

function apply(call: ResolvedCall, authorization: AuthorizationResult, onAllowed: AuthorizedContinuation): undefined | typeof STOP {
  const services = call.services;
  if (!authorization.allowed) {
    // Stryker disable next-line StringLiteral: equivalent through the public API: the policy gate gives every denial a reason, so the
    // fallback is never read.
    const reason = authorization.reason ?? 'Forbidden';
    if (services.isDebugEnabled())
      services.safeLog('debug', { tool: call.toolName }, `[ToolRegistry] Auth result: DENIED: ${call.scrub(reason)}`);
    call.denial = authorization.denial ?? 'rule_provider';
    return call.refuse(ToolErrorCode.FORBIDDEN, reason, 'auth_denied');
  }
  // Checked here, not in debug(): the line's context object would be allocated on every call.
  if (services.isDebugEnabled()) services.safeLog('debug', { tool: call.toolName }, '[ToolRegistry] Auth result: ALLOWED');
  return onAllowed();
}

function debugAuthorize(call: ResolvedCall): void {
  const services = call.services;
  if (services.logger.isLevelEnabled?.('debug') === false) return;
  const tool = call.entry.definition;
  const context = call.context;
  const list = (scopes: readonly string[]): string => (scopes.length === 0 ? '(none)' : scopes.join(', '));
  services.debug(
    { tool: tool.name },
    `[ToolRegistry] Authorizing ${tool.name} for principal=${context.principal ?? 'anonymous'}, channel=${context.channel}`,
  );
  services.debug({ tool: tool.name }, `[ToolRegistry] Tool scopes required: ${list(tool.scopes)}`);
  services.debug({ tool: tool.name }, `[ToolRegistry] Context scopes: ${list(context.scopes)}`);
}

/**
 * Asks the policy gate, once, whether the call's caller may use its tool. A denial ends the call
 * with `FORBIDDEN` and the gate's reason, outcome `auth_denied` (one audit record) and the closed
 * denial reason that the events exit dispatches in `tool.denied`; a gate that throws refuses the
 * call fail-closed, naming the policy gate. When the caller is allowed, `onAllowed` decides what
 * follows: the authorize stage lets the call go on, and the validate stage, which asks only once its
 * arguments have failed, returns the validation error. So a caller who may not call a tool gets the
 * same refusal whatever arguments it sends, and never learns their shape.
 *
 * It consults nothing else (no rate limiter, no rules) and records nothing itself: the refusal
 * travels on the call like any other stage's, to the one events exit and the one audit exit.
 *
 * @example
 * // In a stage's run(call):
 * return authorizeCall(call); // STOP with the refusal, or undefined to go on
 */
export function authorizeCall(call: ResolvedCall, onAllowed: AuthorizedContinuation = GO_ON): StageVerdict {
  debugAuthorize(call);
  let authorization: AuthorizationResult | Promise<AuthorizationResult>;
  try {
    // With validated arguments, the call's own mutability decides (asked once, by validate); before
    // them (the validate stage refusing bad arguments) the gate judges the tool as a listing does.
    authorization =
      call.args === null
        ? call.services.gate.authorize(call.context, call.entry.definition)
        : call.services.gate.authorize(call.context, call.entry.definition, { mutating: call.mutating });
  } catch (error) {
    // Contained here rather than by the runner, so the message names the policy gate whichever
    // stage asked (the runner would name the asking stage's own collaborator).
    return call.failClosed(POLICY_GATE, error);
  }
  if (isPromiseLike<AuthorizationResult>(authorization)) return authorization.then((answer) => apply(call, answer, onAllowed));
  return apply(call, authorization, onAllowed);
}
