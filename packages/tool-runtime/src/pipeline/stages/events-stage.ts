import { ToolEvents, ToolExecutedEvent, ToolFailedEvent } from '@milpa/core';
import { describeStep } from '../describe-step.js';
import type { PipelineCall } from '../pipeline-call.js';
import type { Stage, StageVerdict } from '../stage.js';

/**
 * Tells listeners how an executed call went: `tool.executed` for a result (the handler's, or a
 * `tool.executing` listener's answer), `tool.failed` for a handler that threw. Isolated: a listener
 * that throws can never change the result. When nobody but the registry's own audit listens, no
 * event is built and the audit exit writes the record directly.
 */
export const eventsStage: Stage = {
  name: 'events',
  phase: 'exit',
  collaborator: 'post-execution dispatch',
  refusesOnAbort: false,
  run(call: PipelineCall): StageVerdict {
    const outcome = call.outcome;
    if (outcome !== 'executed' && outcome !== 'failed') return undefined;
    const services = call.services;
    const eventName = outcome === 'executed' ? ToolEvents.EXECUTED : ToolEvents.FAILED;
    if (services.auditsAlone(eventName)) return undefined;
    const name = call.entry!.definition.name;
    const result = call.result!;
    // The registry's audit listener writes the record while the event is dispatched.
    call.audited = true;
    const event =
      outcome === 'executed'
        ? new ToolExecutedEvent(name, call.context, call.args!, result, call.cacheServed)
        : new ToolFailedEvent(name, call.context, call.args!, call.thrown, result.meta['took_ms'] as number);
    return services.emit(eventName, event) as PromiseLike<undefined>;
  },
  describe({ wiring }) {
    return [
      wiring.hasDispatcher
        ? describeStep('events', 'hook', 'active', false, false, 'host wiring: dispatcher present; tool.executed (result or cache answer) or tool.failed (handler threw) is dispatched, and a listener that throws cannot change the result')
        : describeStep('events', 'hook', 'skipped', false, false, 'host wiring: dispatcher absent; no tool.executed or tool.failed event (the call is still audited)'),
    ];
  },
};
