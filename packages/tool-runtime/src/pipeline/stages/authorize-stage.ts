import { mutabilityOf } from '@milpa/core';
import { POLICY_GATE, authorizeCall } from '../authorize-call.js';
import { describeStep } from '../describe-step.js';
import type { Stage, StageSubject, StageVerdict, ValidatedCall } from '../stage.js';

function describeSource({ tool, context, channelPolicy, policy }: StageSubject): string {
  const allowAll = channelPolicy.allow_all === true;
  const parts = [
    `channel '${context.channel}': require_auth=${String(channelPolicy.require_auth === true)}, allow_all=${String(allowAll)}, ` +
      `block_mutating=${String(channelPolicy.block_mutating === true)}`,
  ];
  if (channelPolicy.block_mutating === true && allowAll !== true && mutabilityOf(tool) === 'depends_on_arguments') {
    parts.push('tool.mutating depends on arguments: block_mutating refuses the calls whose arguments make it mutating');
  }
  if (allowAll) {
    parts.push(
      'allow_all only skips the final channel-policy step (block_mutating); require_auth, scopes, rules and confirmation still apply',
    );
  }
  parts.push(tool.scopes.length > 0 ? `tool requires one of the scopes: ${tool.scopes.join(', ')}` : 'tool has no declared scopes');
  parts.push(policy.hasRuleProvider() ? 'rule provider: present, consulted' : 'rule provider: absent, rules skipped');
  return parts.join('; ');
}

/**
 * Asks the policy gate whether this caller may use this tool: require_auth, the tool's scopes, the
 * host's rule provider, then the channel policy. A denial returns `FORBIDDEN` with the gate's
 * reason; a rule provider that throws is a denial (the gate fails closed). The decision itself is
 * `authorizeCall`, which the validate stage also asks before it reveals why arguments failed.
 */
export const authorizeStage: Stage = {
  name: 'authorize',
  phase: 'gate',
  needs: 'arguments',
  collaborator: POLICY_GATE,
  refusesOnAbort: true,
  run(call: ValidatedCall): StageVerdict {
    return authorizeCall(call);
  },
  describe(subject) {
    return [describeStep('authorize', 'guard', 'active', true, false, describeSource(subject))];
  },
};
