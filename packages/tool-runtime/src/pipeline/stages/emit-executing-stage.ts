import { InterceptionSlot, ToolErrorCode, ToolEvents, ToolExecutingEvent, ToolResult } from '@milpa/core';
import { EXECUTED_BY_LISTENER, refusedOutcome } from '../call-outcomes.js';
import { describeStep } from '../describe-step.js';
import { isPromiseLike } from '../settle.js';
import type { STOP, Stage, StageVerdict, ValidatedCall } from '../stage.js';

const VETO_MESSAGE = 'Tool execution vetoed by an event listener';

function applySlot(call: ValidatedCall, slot: InterceptionSlot): undefined | typeof STOP {
  if (!slot.isStopped()) return undefined;
  if (slot.hasResult()) {
    const value = slot.getResult();
    // A listener's own result reaches the caller as the very instance it answered (a cache may rely
    // on it), so it keeps whatever outcome it carries; the call's own ending says a listener served it.
    const result = ToolResult.isToolResult(value)
      ? value
      : new ToolResult(true, value, null, null, call.reportingMeta(), EXECUTED_BY_LISTENER);
    return call.end(result, EXECUTED_BY_LISTENER);
  }
  // The shape of ToolResult.blocked(VETO_MESSAGE).withMeta(call.meta()), built once with its outcome.
  const outcome = refusedOutcome('vetoed', ToolErrorCode.FORBIDDEN, VETO_MESSAGE);
  const meta = { type: 'blocked', blocked_by_rule: true, suggestion: null, ...call.meta() };
  return call.end(new ToolResult(false, null, null, VETO_MESSAGE, meta, outcome), outcome, VETO_MESSAGE);
}

/**
 * Fires `tool.executing` — only ever after every gate said yes — with the frozen arguments and an
 * interception slot: a listener may answer instead of the handler (a cache) or veto the call. A
 * dispatcher that throws or rejects refuses the call (fail-closed), never lets it through
 * unintercepted. Skipped when nobody listens.
 */
export const emitExecutingStage: Stage = {
  name: 'emit_executing',
  phase: 'gate',
  needs: 'arguments',
  collaborator: 'tool.executing dispatch',
  refusesOnAbort: true,
  run(call: ValidatedCall): StageVerdict {
    const dispatcher = call.services.dispatcher;
    if (dispatcher === null || !dispatcher.hasSubscribers(ToolEvents.EXECUTING)) return undefined;
    const slot = new InterceptionSlot();
    const event = new ToolExecutingEvent(call.entry.definition.name, call.context, call.args);
    const dispatched = dispatcher.dispatch(ToolEvents.EXECUTING, { event, slot });
    if (isPromiseLike(dispatched)) return dispatched.then(() => applySlot(call, slot));
    return applySlot(call, slot);
  },
  describe({ wiring }) {
    return [
      wiring.hasDispatcher
        ? describeStep(
            'emit_executing',
            'hook',
            'active',
            true,
            false,
            'host wiring: dispatcher present; tool.executing fires after every gate, and a listener may short-circuit (cache) or veto',
          )
        : describeStep('emit_executing', 'hook', 'skipped', true, false, 'host wiring: dispatcher absent; nothing can intercept the call'),
    ];
  },
};
