import { ToolErrorCode, ToolResult, isToolErrorCode } from '@milpa/core';
import { refusedOutcome } from '../call-outcomes.js';
import { describeStep } from '../describe-step.js';
import type { HostStage, HostStageAnswer } from '../host-stage.js';
import { isPromiseLike } from '../settle.js';
import type { STOP, Stage, StageVerdict, ValidatedCall } from '../stage.js';

function answered(call: ValidatedCall, name: string, answer: HostStageAnswer): undefined | typeof STOP {
  if (answer === undefined) return undefined;
  if (!ToolResult.isToolResult(answer) || answer.success) {
    const error = new Error('it must answer nothing to let the call go on, or a failed ToolResult to refuse it');
    return call.failClosed(`host stage '${name}'`, error);
  }
  const code = typeof answer.meta['code'] === 'string' ? answer.meta['code'] : ToolErrorCode.FORBIDDEN;
  const meta = Object.freeze(Object.assign({}, call.meta(), answer.meta, { code, stage: name }));
  // A host's refusal may quote the arguments it judged: its texts are scrubbed like every refusal.
  const message = call.scrub(answer.error ?? answer.message ?? `Refused by the '${name}' stage`);
  const note = answer.message === null ? null : call.scrub(answer.message);
  const outcome = refusedOutcome('refused', isToolErrorCode(code) ? code : ToolErrorCode.FORBIDDEN, message);
  return call.end(new ToolResult(false, answer.data, note, message, meta, outcome), outcome, message);
}

/** Wraps a host's guard as a pipeline stage, contained and inspectable like the built-in ones. */
export function createHostGuardStage(host: HostStage): Stage {
  const name = host.name;
  const description = host.description === undefined ? 'a guard of the host' : host.description;
  return {
    name,
    phase: 'gate',
    needs: 'arguments',
    collaborator: `host stage '${name}'`,
    refusesOnAbort: true,
    run(call: ValidatedCall): StageVerdict {
      const answer = host.check({
        tool: call.entry.definition,
        args: call.args,
        mutating: call.mutating,
        context: call.context,
        signal: call.options?.signal,
      });
      if (isPromiseLike<HostStageAnswer>(answer)) return answer.then((settled) => answered(call, name, settled));
      return answered(call, name, answer);
    },
    describe() {
      return [
        describeStep(
          `host:${name}`,
          'guard',
          'active',
          true,
          false,
          `host stage '${name}': ${description}; a failed result refuses the call, a throw refuses it fail-closed`,
        ),
      ];
    },
  };
}
