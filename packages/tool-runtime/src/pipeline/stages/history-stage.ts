import type { InvocationObservation } from '@milpa/core';
import { describeStep } from '../describe-step.js';
import { isPromiseLike } from '../settle.js';
import type { Stage, StageVerdict, EndedCall } from '../stage.js';

/** The longest tool name an observation keeps (an unknown name comes from the caller, unbounded). */
const MAX_TOOL_NAME = 128;

/** Settles the call's place with its observation, or appends the observation when it holds none. */
function record(call: EndedCall, runId: string, observation: InvocationObservation, reservation: string | null): StageVerdict {
  const store = call.services.invocation.store;
  const written = reservation === null ? store.append(runId, observation) : store.settle(runId, reservation, observation);
  return isPromiseLike(written) ? (written as PromiseLike<undefined>) : undefined;
}

/**
 * Records how a call of a run ended in the run's invocation history — tool, outcome and target
 * reference, never arguments or results — for every outcome, refusals included. A call that took
 * a place in the history before its rules ran settles it: the place becomes the observation in one
 * step of the store. Calls outside a run are not recorded. A store that fails is logged; it can
 * never change the result (a place left unsettled is released by its lease).
 */
export const historyStage: Stage = {
  name: 'history',
  phase: 'exit',
  needs: 'result',
  collaborator: 'invocation history store',
  refusesOnAbort: false,
  // A plain call belongs to no run.
  idleForPlainCall: () => true,
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
    const reservation = call.reservation;
    if (isPromiseLike(reservation)) {
      return Promise.resolve(reservation).then((id) => record(call, runId, observation, id));
    }
    return record(call, runId, observation, reservation);
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
