import { mutabilityOf } from '@milpa/core';
import type { InvocationStepInit } from '../../inspection/invocation-step.js';
import { isResuming } from '../control-values.js';
import { describeStep } from '../describe-step.js';
import { authorizeCall } from '../authorize-call.js';
import { evaluateInvocation } from '../evaluate-invocation.js';
import { isPromiseLike } from '../settle.js';
import { STOP, type Stage, type StageVerdict, type ValidatedCall } from '../stage.js';
import { describeInvocationRules, runsRulesOnReplay } from './rules-stage.js';

/** Authorization again, then the rules: a held call may have waited hours for its approval. */
function authorizeThenEvaluate(call: ValidatedCall): StageVerdict {
  const authorized = authorizeCall(call);
  if (authorized === STOP) return STOP;
  if (isPromiseLike<undefined | typeof STOP>(authorized))
    return Promise.resolve(authorized).then((verdict) => (verdict === STOP ? STOP : evaluateInvocation(call)));
  return evaluateInvocation(call);
}

/**
 * On a confirmation replay or the resume of a held call only: the invocation rules over the
 * arguments the redeemed token or approval carries — the ones that will execute — right before
 * `tool.executing`, with the run's history as it is now (it may have grown since the token was
 * minted or the call was held). A resume is authorized again here first, for the approved arguments.
 */
export const rulesReplayStage: Stage = {
  name: 'rules_replay',
  phase: 'gate',
  needs: 'arguments',
  collaborator: 'invocation rules',
  refusesOnAbort: true,
  // A plain call presents no approval id and no confirmation token, so it replays nothing.
  idleForPlainCall: () => true,
  run(call: ValidatedCall): StageVerdict {
    if (!runsRulesOnReplay(call)) return undefined;
    if (isResuming(call)) return authorizeThenEvaluate(call);
    return evaluateInvocation(call);
  },
  describe(subject): readonly InvocationStepInit[] {
    const { presence, source } = describeInvocationRules(subject);
    const held = mutabilityOf(subject.tool) !== 'read_only' && subject.wiring.hasApprovalGate(subject.tool.name);
    const resume = held
      ? 'on the resume of a held call, authorization runs again here, then the rules, over the approved arguments that will execute: ' +
        `${presence === 'skipped' ? 'no invocation rule applies to this tool' : source}`
      : null;
    // A tool whose mutability depends on its arguments may be confirmed: only read-only never is.
    const confirmable =
      subject.tool.requiresConfirmation ||
      (mutabilityOf(subject.tool) !== 'read_only' && subject.channelPolicy.require_confirmation_for_mutating === true);
    if (presence === 'skipped' || !confirmable) {
      if (resume !== null) return [describeStep('rules_replay', 'guard', 'conditional', true, false, resume)];
      if (presence === 'skipped')
        return [describeStep('rules_replay', 'guard', 'skipped', false, false, 'no invocation rule applies to this tool')];
      return [
        describeStep(
          'rules_replay',
          'guard',
          'dormant',
          false,
          false,
          'this call is never confirmed, so the rules run once, after authorize',
        ),
      ];
    }
    const replay =
      `on a confirmation replay the rules run here instead of after ` +
      `authorize, over the redeemed arguments that will execute: ${source}`;
    return [describeStep('rules_replay', 'guard', 'conditional', true, false, resume === null ? replay : `${replay}; ${resume}`)];
  },
};
