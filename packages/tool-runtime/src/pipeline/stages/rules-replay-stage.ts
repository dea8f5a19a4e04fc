import { mutabilityOf } from '@milpa/core';
import type { InvocationStepInit } from '../../inspection/invocation-step.js';
import { describeStep } from '../describe-step.js';
import { evaluateInvocation } from '../evaluate-invocation.js';
import type { PipelineCall } from '../pipeline-call.js';
import type { Stage, StageVerdict } from '../stage.js';
import { describeInvocationRules, isConfirmationReplay } from './rules-stage.js';

/**
 * On a confirmation replay only: the invocation rules over the arguments the redeemed token
 * carries — the ones that will execute — right before `tool.executing`, with the run's history as
 * it is now (it may have grown since the token was minted).
 */
export const rulesReplayStage: Stage = {
  name: 'rules_replay',
  phase: 'gate',
  collaborator: 'invocation rules',
  refusesOnAbort: true,
  run(call: PipelineCall): StageVerdict {
    if (!isConfirmationReplay(call)) return undefined;
    return evaluateInvocation(call);
  },
  describe(subject): readonly InvocationStepInit[] {
    const { presence, source } = describeInvocationRules(subject);
    if (presence === 'skipped') return [describeStep('rules_replay', 'guard', 'skipped', false, false, 'no invocation rule applies to this tool')];
    // A tool whose mutability depends on its arguments may be confirmed: only read-only never is.
    const confirmable = subject.tool.requiresConfirmation || (mutabilityOf(subject.tool) !== 'read_only' && subject.channelPolicy.require_confirmation_for_mutating === true);
    if (!confirmable) {
      return [describeStep('rules_replay', 'guard', 'dormant', false, false, 'this call is never confirmed, so the rules run once, after authorize')];
    }
    return [
      describeStep(
        'rules_replay',
        'guard',
        'conditional',
        true,
        false,
        `on a confirmation replay the rules run here instead of after authorize, over the redeemed arguments that will execute: ${source}`,
      ),
    ];
  },
};
