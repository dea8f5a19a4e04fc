import { deepFreeze } from '@milpa/core/kit';
import {
  GovernanceEvents,
  ToolDeniedEvent,
  ToolEvents,
  ToolExecutedEvent,
  ToolFailedEvent,
  ToolInvocationDeniedEvent,
  ToolResult,
  type ToolArgs,
} from '@milpa/core';
import { scrubThrown } from '../../audit/scrub-thrown.js';
import { describeStep } from '../describe-step.js';
import type { PipelineServices } from '../pipeline-services.js';
import { isValidated, type EndedCall, type Stage, type StageVerdict } from '../stage.js';

/** `tool.denied` or `tool.invocation_denied` for a refused call; nothing for other outcomes. */
function governanceEvent(call: EndedCall): StageVerdict {
  const services = call.services;
  if (services.dispatcher === null) return undefined;
  const result = call.result;
  // Only what a failing listener's text is scrubbed with: the audit listener never records these events.
  const raw = { args: call.auditArgs, thrown: undefined };
  if (call.outcome === 'invocation_denied') {
    const event = new ToolInvocationDeniedEvent(call.toolName, call.context, call.deniedByRule, String(result.meta['reason']), call.target);
    return services.emit(GovernanceEvents.INVOCATION_DENIED, event, call.toolName, raw) as PromiseLike<undefined>;
  }
  if (call.denial === null) return undefined;
  // A refusal's text was scrubbed when the call was refused.
  const event = new ToolDeniedEvent(call.toolName, call.context, call.denial, result.error ?? '');
  return services.emit(GovernanceEvents.DENIED, event, call.toolName, raw) as PromiseLike<undefined>;
}

/** The result as listeners see it: an error result's message and error scrubbed (the same instance when nothing changes). */
function scrubbedResult(result: ToolResult, scrub: (text: string) => string): ToolResult {
  if (result.success) return result;
  const error = result.error === null ? null : scrub(result.error);
  const message = result.message === null ? null : scrub(result.message);
  if (error === result.error && message === result.message) return result;
  return new ToolResult(false, result.data, message, error, result.meta, result.outcome);
}

/**
 * `tool.executed` or `tool.failed` as listeners get it: the arguments redacted and scrubbed, a
 * failed result's text and what the handler threw scrubbed. Hosts forward these events to log
 * sinks; the raw arguments stay with `tool.executing`, whose listeners need them.
 */
function executionEvent(
  services: PipelineServices,
  call: EndedCall & { args: ToolArgs },
  name: string,
): ToolExecutedEvent | ToolFailedEvent {
  const secrets = services.secretsOf(call.args, name);
  const args = deepFreeze(services.redactView(call.args, name, secrets)) as ToolArgs;
  const redactor = services.audit.redactor;
  const scrub = (text: string): string => redactor.scrub(text, secrets);
  const result = call.result;
  if (call.outcome === 'executed') return new ToolExecutedEvent(name, call.context, args, scrubbedResult(result, scrub), call.cacheServed);
  const thrown = scrubThrown(call.thrown, { text: scrub, value: (value) => services.redactView(value, name, secrets) });
  return new ToolFailedEvent(name, call.context, args, thrown, result.meta['took_ms'] as number);
}

/**
 * Tells listeners how an executed call went: `tool.executed` for a result (the handler's, or a
 * `tool.executing` listener's answer), `tool.failed` for a handler that threw, both with redacted
 * arguments and scrubbed error text. Isolated: a listener
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
    // The registry's audit listener writes the record while the event is dispatched.
    call.audited = true;
    const event = executionEvent(services, call, name);
    return services.emit(eventName, event, name, { args: call.args, thrown: call.thrown }) as PromiseLike<undefined>;
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
            'host wiring: dispatcher present; tool.executed (result or cache answer) or tool.failed (handler threw) is ' +
              'dispatched, tool.denied for an authorization, rate-limit or approval refusal, tool.invocation_denied for an ' +
              'invocation-rule refusal; a listener that throws cannot change the result',
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
