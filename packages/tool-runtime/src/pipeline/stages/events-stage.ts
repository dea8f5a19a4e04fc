import { GovernanceEvents, ToolDeniedEvent, ToolEvents, ToolExecutedEvent, ToolFailedEvent, ToolInvocationDeniedEvent } from '@milpa/core';
import { describeStep } from '../describe-step.js';
import { isValidated, type EndedCall, type Stage, type StageVerdict } from '../stage.js';

/** `tool.denied` or `tool.invocation_denied` for a refused call; nothing for other outcomes. */
function governanceEvent(call: EndedCall): StageVerdict {
  const services = call.services;
  if (services.dispatcher === null) return undefined;
  const result = call.result;
  if (call.outcome === 'invocation_denied') {
    const event = new ToolInvocationDeniedEvent(call.toolName, call.context, call.deniedByRule, String(result.meta['reason']), call.target);
    return services.emit(GovernanceEvents.INVOCATION_DENIED, event) as PromiseLike<undefined>;
  }
  if (call.denial === null) return undefined;
  const event = new ToolDeniedEvent(call.toolName, call.context, call.denial, result.error ?? '');
  return services.emit(GovernanceEvents.DENIED, event) as PromiseLike<undefined>;
}

/**
 * Tells listeners how an executed call went: `tool.executed` for a result (the handler's, or a
 * `tool.executing` listener's answer), `tool.failed` for a handler that threw. Isolated: a listener
 * that throws can never change the result. When nobody but the registry's own audit listens, no
 * event is built and the audit exit writes the record directly. A call refused by authorization or
 * the rate limiter dispatches `tool.denied` (with a reason from a closed set); one refused by an
 * invocation rule dispatches `tool.invocation_denied` (rule and reason code, no arguments).
 */
export const eventsStage: Stage = {
  name: 'events',
  phase: 'exit',
  needs: 'result',
  collaborator: 'post-execution dispatch',
  refusesOnAbort: false,
  run(call: EndedCall): StageVerdict {
    const outcome = call.outcome;
    if (outcome !== 'executed' && outcome !== 'failed')
      return outcome === 'invocation_denied' || call.denial !== null ? governanceEvent(call) : undefined;
    const services = call.services;
    const eventName = outcome === 'executed' ? ToolEvents.EXECUTED : ToolEvents.FAILED;
    // Only a call that got as far as its handler executes or fails: it has its tool and arguments.
    if (services.auditsAlone(eventName) || !isValidated(call)) return undefined;
    const name = call.entry.definition.name;
    const result = call.result;
    // The registry's audit listener writes the record while the event is dispatched.
    call.audited = true;
    const event =
      outcome === 'executed'
        ? new ToolExecutedEvent(name, call.context, call.args, result, call.cacheServed)
        : new ToolFailedEvent(name, call.context, call.args, call.thrown, result.meta['took_ms'] as number);
    return services.emit(eventName, event) as PromiseLike<undefined>;
  },
  describe({ wiring }) {
    return [
      wiring.hasDispatcher
        ? describeStep(
            'events',
            'hook',
            'active',
            false,
            false,
            'host wiring: dispatcher present; tool.executed (result or cache answer) or tool.failed (handler threw) is dispatched, tool.denied for an authorization, rate-limit or approval refusal, tool.invocation_denied for an invocation-rule refusal; a listener that throws cannot change the result',
          )
        : describeStep(
            'events',
            'hook',
            'skipped',
            false,
            false,
            'host wiring: dispatcher absent; no tool.executed, tool.failed or governance event (the call is still audited)',
          ),
    ];
  },
};
