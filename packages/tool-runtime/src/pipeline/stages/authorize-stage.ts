import { ToolErrorCode } from '@milpa/core';
import type { AuthorizationResult } from '../../policy/authorization-result.js';
import { describeStep } from '../describe-step.js';
import type { PipelineCall } from '../pipeline-call.js';
import { isPromiseLike } from '../settle.js';
import type { STOP, Stage, StageSubject, StageVerdict } from '../stage.js';

function apply(call: PipelineCall, authorization: AuthorizationResult): undefined | typeof STOP {
  const services = call.services;
  if (!authorization.allowed) {
    // Stryker disable next-line StringLiteral: equivalent through the public API: the policy gate gives every denial a reason, so the fallback is never read.
    const reason = authorization.reason ?? 'Forbidden';
    services.debug({ tool: call.toolName }, `[ToolRegistry] Auth result: DENIED: ${reason}`);
    call.denial = authorization.denial ?? 'rule_provider';
    return call.refuse(ToolErrorCode.FORBIDDEN, reason, 'auth_denied');
  }
  // Checked here, not in debug(): the line's context object would be allocated on every call.
  if (services.isDebugEnabled()) services.safeLog('debug', { tool: call.toolName }, '[ToolRegistry] Auth result: ALLOWED');
  return undefined;
}

function debugAuthorize(call: PipelineCall): void {
  const services = call.services;
  if (services.logger.isLevelEnabled?.('debug') === false) return;
  const tool = call.entry!.definition;
  const context = call.context;
  const list = (scopes: readonly string[]): string => (scopes.length === 0 ? '(none)' : scopes.join(', '));
  services.debug({ tool: tool.name }, `[ToolRegistry] Authorizing ${tool.name} for principal=${context.principal ?? 'anonymous'}, channel=${context.channel}`);
  services.debug({ tool: tool.name }, `[ToolRegistry] Tool scopes required: ${list(tool.scopes)}`);
  services.debug({ tool: tool.name }, `[ToolRegistry] Context scopes: ${list(context.scopes)}`);
}

function describeSource({ tool, context, channelPolicy, policy }: StageSubject): string {
  const allowAll = channelPolicy.allow_all === true;
  const parts = [
    `channel '${context.channel}': require_auth=${String(channelPolicy.require_auth === true)}, allow_all=${String(allowAll)}, ` +
      `block_mutating=${String(channelPolicy.block_mutating === true)}`,
  ];
  if (allowAll) {
    parts.push('allow_all only skips the final channel-policy step (block_mutating); require_auth, scopes, rules and confirmation still apply');
  }
  parts.push(tool.scopes.length > 0 ? `tool requires one of the scopes: ${tool.scopes.join(', ')}` : 'tool has no declared scopes');
  parts.push(policy.hasRuleProvider() ? 'rule provider: present, consulted' : 'rule provider: absent, rules skipped');
  return parts.join('; ');
}

/**
 * Asks the policy gate whether this caller may use this tool: require_auth, the tool's scopes, the
 * host's rule provider, then the channel policy. A denial returns `FORBIDDEN` with the gate's
 * reason; a rule provider that throws is a denial (the gate fails closed).
 */
export const authorizeStage: Stage = {
  name: 'authorize',
  phase: 'gate',
  collaborator: 'policy gate',
  refusesOnAbort: true,
  run(call: PipelineCall): StageVerdict {
    debugAuthorize(call);
    const authorization = call.services.gate.authorize(call.context, call.entry!.definition);
    if (isPromiseLike<AuthorizationResult>(authorization)) return authorization.then((answer) => apply(call, answer));
    return apply(call, authorization);
  },
  describe(subject) {
    return [describeStep('authorize', 'guard', 'active', true, false, describeSource(subject))];
  },
};
