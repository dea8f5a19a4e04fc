import type { InvocationObservation } from '@milpa/core';
import { describeStep } from '../describe-step.js';
import { isPromiseLike } from '../settle.js';
import type { Stage, StageVerdict, EndedCall } from '../stage.js';

/** The longest tool name an observation keeps (an unknown name comes from the caller, unbounded). */
const MAX_TOOL_NAME = 128;

/**
 * Records how a call of a run ended in the run's invocation history — tool, outcome and target
 * reference, never arguments or results — for every outcome, refusals included. Calls outside a
 * run are not recorded. A store that fails is logged; it can never change the result.
 */
export const historyStage: Stage = {
  name: 'history',
  phase: 'exit',
  needs: 'result',
  collaborator: 'invocation history store',
  refusesOnAbort: false,
  run(call: EndedCall): StageVerdict {
    const runId = call.context.runId;
    const outcome = call.outcome;
    if (runId === null || outcome === null) return undefined;
    const name = call.toolName;
    const observation: InvocationObservation = Object.freeze({
      tool: name.length > MAX_TOOL_NAME ? name.slice(0, MAX_TOOL_NAME) : name,
      outcome,
      target: call.target,
    });
    const written = call.services.invocation.store.append(runId, observation);
    return isPromiseLike(written) ? (written as PromiseLike<undefined>) : undefined;
  },
  describe({ context }) {
    return [
      context.runId === null
        ? describeStep(
            'history',
            'outcome',
            'skipped',
            false,
            false,
            'the context has no run: the call is not recorded in any invocation history',
          )
        : describeStep(
            'history',
            'outcome',
            'active',
            false,
            false,
            `records tool, outcome and target reference (never arguments or results) in run '${context.runId}'s invocation history`,
          ),
    ];
  },
};
