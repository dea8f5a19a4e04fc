import type { InvocationStepInit } from '../../inspection/invocation-step.js';
import { isResuming, presentedConfirmToken } from '../control-values.js';
import { describeStep } from '../describe-step.js';
import { evaluateInvocation } from '../evaluate-invocation.js';
import type { Stage, StageSubject, StageVerdict, ValidatedCall } from '../stage.js';

/**
 * True when a later stage will replace the arguments: confirm with a redeemed token's, or approve
 * with a held call's approved ones. The rules then wait for those (the `rules_replay` stage).
 */
export function runsRulesOnReplay(call: ValidatedCall): boolean {
  // A plan-mode call stops before confirm, so its rules run here, on the arguments it has.
  if (call.context.mode === 'plan') return false;
  return isResuming(call) || (call.needsConfirmation && presentedConfirmToken(call) !== undefined);
}

function listRules(rules: StageSubject['wiring']['rules']): string {
  return rules
    .map((rule) => (rule.requiresCompleteHistory ? `${rule.identifier} (requires complete history)` : rule.identifier))
    .join(', ');
}

/** What the rules and resolvers would do for this tool and caller; shared with the replay step. */
export function describeInvocationRules({ tool, context, wiring }: StageSubject): { presence: 'active' | 'skipped'; source: string } {
  const rules = wiring.rulesFor(tool.name);
  // With rules in the registry, every call of a run takes its place in the run's history here.
  const place =
    context.runId !== null && wiring.rules.length > 0
      ? `the call first takes its place in run '${context.runId}'s history, so it and the calls of the run ahead of it, still in ` +
        `flight, see each other (a store that fails refuses the call)`
      : null;
  if (rules.length === 0) {
    if (place !== null) {
      return { presence: 'active', source: `no invocation rule applies to this tool; ${place}, for the rules of other tools` };
    }
    if (wiring.targetResolvers > 0 && context.runId !== null) {
      return {
        presence: 'active',
        source:
          `no invocation rule applies to this tool; ${wiring.targetResolvers} target resolver(s) name the call's target ` +
          `for its run's history (two claiming it, or one that fails, refuse it)`,
      };
    }
    return { presence: 'skipped', source: 'no invocation rule applies to this tool: nothing is evaluated' };
  }
  const parts = [`invocation rules, in order until one denies: ${listRules(rules)}`];
  parts.push(
    wiring.targetResolvers > 0
      ? `${wiring.targetResolvers} target resolver(s); two claiming the call, or one that fails, refuse it`
      : 'no target resolver: the target is null',
  );
  const strict = rules.filter((rule) => rule.requiresCompleteHistory).map((rule) => rule.identifier);
  if (strict.length === 0) {
    parts.push('history completeness cannot refuse this call (no rule requires a complete history)');
  } else if (context.runId === null) {
    parts.push(
      `history completeness refuses this call: the context has no run, so its history is incomplete and ${strict.join(', ')} ` +
        `refuse it (history_incomplete)`,
    );
  } else {
    parts.push(
      `history completeness can refuse this call: ${strict.join(', ')} require a complete history, which run '${context.runId}' ` +
        `has only if the history store opened it and recorded every call since`,
    );
  }
  if (place !== null) parts.push(place);
  parts.push(
    'a rule that throws or answers something other than a decision refuses the ' +
      'call (rule_failed); denials carry the rule and reason code, never arguments',
  );
  return { presence: 'active', source: parts.join('; ') };
}

/**
 * The host's invocation rules over this call's final (validated, frozen) arguments, actor, target
 * and run history, in registration order until one denies: `FORBIDDEN` with `meta.rule` and
 * `meta.reason`. For a confirmation replay the rules wait until confirm has redeemed the token,
 * so they judge the arguments that will execute (see the `rules_replay` stage).
 */
export const rulesStage: Stage = {
  name: 'rules',
  phase: 'gate',
  needs: 'arguments',
  collaborator: 'invocation rules',
  refusesOnAbort: true,
  run(call: ValidatedCall): StageVerdict {
    if (runsRulesOnReplay(call)) return undefined;
    return evaluateInvocation(call);
  },
  describe(subject): readonly InvocationStepInit[] {
    const { presence, source } = describeInvocationRules(subject);
    return [describeStep('rules', 'guard', presence, presence === 'active', false, source)];
  },
};
