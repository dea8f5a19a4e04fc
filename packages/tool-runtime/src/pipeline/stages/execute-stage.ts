import { ToolErrorCode, ToolResult, mutabilityOf, unsupportedCaller, type AnyToolDefinition } from '@milpa/core';
import { EXECUTED_BY_HANDLER, failedOutcome } from '../call-outcomes.js';
import { describeStep } from '../describe-step.js';
import { isPromiseLike, messageOf } from '../settle.js';
import type { STOP, Stage, StageVerdict, ValidatedCall } from '../stage.js';
import { ToolInvocationState } from '../tool-invocation-state.js';
import { runInTelemetryContext } from '../../telemetry/run-in-telemetry-context.js';

/** Sentinel rejection of a hard-timeout race. */
const HARD_TIMEOUT: unique symbol = Symbol('milpa.hardTimeout');

/** The result of a handler that returned `value`, with the soft-timeout meta when it ran late. */
function executed(call: ValidatedCall, tool: AnyToolDefinition, value: unknown): typeof STOP {
  // One clock read serves took_ms and the soft-timeout check (a clock read is not free on every host).
  const elapsedMs = performance.now() - call.startedAt;
  const meta = call.metaAfter(elapsedMs, true);
  let result = ToolResult.isToolResult(value)
    ? new ToolResult(
        value.success,
        value.data,
        value.message,
        value.error,
        Object.freeze(Object.assign({}, meta, value.meta)),
        EXECUTED_BY_HANDLER,
      )
    : new ToolResult(true, value, null, null, meta, EXECUTED_BY_HANDLER);
  if (elapsedMs > tool.timeoutMs) {
    result = result.withMeta({
      timeout_exceeded: true,
      execution_time: Math.round(elapsedMs) / 1000,
      timeout_limit: tool.timeoutMs / 1000,
    });
  }
  return call.end(result, EXECUTED_BY_HANDLER);
}

/** The handler threw (or rejected): `INTERNAL_ERROR`, with the message unless the host hides it. */
function failed(call: ValidatedCall, tool: AnyToolDefinition, error: unknown): typeof STOP {
  const services = call.services;
  const detail = call.scrub(messageOf(error));
  services.safeLog(
    'error',
    { tool: tool.name, request_id: call.context.requestId, error: detail },
    `[ToolRegistry] ${tool.name} threw exception: ${detail}`,
  );
  const message = services.exposeErrorMessages ? detail : `Tool '${tool.name}' failed (request ${call.context.requestId})`;
  call.thrown = error;
  const outcome = failedOutcome('failed', message);
  const meta = { ...call.reportingMeta(), code: ToolErrorCode.INTERNAL_ERROR, type: 'error' };
  return call.end(new ToolResult(false, null, null, message, meta, outcome), outcome);
}

function hardTimeout(call: ValidatedCall, tool: AnyToolDefinition): typeof STOP {
  const message = `Tool '${tool.name}' timed out after ${tool.timeoutMs} ms`;
  const outcome = failedOutcome('timeout', message);
  const meta = {
    ...call.reportingMeta(),
    code: ToolErrorCode.TIMEOUT,
    timeout_exceeded: true,
    timeout_limit: tool.timeoutMs / 1000,
    type: 'error',
  };
  return call.end(new ToolResult(false, null, null, message, meta, outcome), outcome);
}

function raceDeadline(
  pending: PromiseLike<unknown>,
  invocation: ToolInvocationState,
  timeoutMs: number,
  startedAt: number,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => {
        invocation.abortForTimeout();
        reject(HARD_TIMEOUT);
      },
      Math.max(0, startedAt + timeoutMs - performance.now()),
    );
    Promise.resolve(pending).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Awaits an asynchronous handler (racing the deadline for a hard timeout), contained. */
async function settle(
  call: ValidatedCall,
  tool: AnyToolDefinition,
  pending: PromiseLike<unknown>,
  invocation: ToolInvocationState,
): Promise<typeof STOP> {
  let value: unknown;
  try {
    value = tool.hardTimeout ? await raceDeadline(pending, invocation, tool.timeoutMs, call.startedAt) : await pending;
  } catch (error) {
    invocation.finish();
    return error === HARD_TIMEOUT ? hardTimeout(call, tool) : failed(call, tool, error);
  }
  invocation.finish();
  return executed(call, tool, value);
}

/**
 * Runs the handler with the frozen arguments and `{ context, signal, caller }`, contained: any
 * throw or rejection (an Error or any other value) becomes `INTERNAL_ERROR`, so `call()` never
 * rejects. The signal aborts at the tool's deadline or on the caller's abort; a hard timeout
 * returns `TIMEOUT` at the deadline without waiting. Synchronous when the handler is.
 */
export const executeStage: Stage = {
  name: 'execute',
  phase: 'gate',
  needs: 'arguments',
  collaborator: 'handler',
  // The handler is told of an abort through its own signal; its answer is never abandoned.
  refusesOnAbort: false,
  run(call: ValidatedCall): StageVerdict {
    const tool = call.entry.definition;
    const callerSignal = call.options?.signal;
    if (callerSignal?.aborted) return call.callerAborted();
    const invocation = new ToolInvocationState(
      call.context,
      call.options?.caller ?? unsupportedCaller,
      call.startedAt,
      tool.timeoutMs,
      callerSignal,
    );
    let value: unknown;
    try {
      // Inside the tool span's context, so spans the handler starts nest under it.
      value =
        call.telemetryContext === null
          ? tool.handler(call.args, invocation)
          : runInTelemetryContext(call.telemetryContext, tool, call.args, invocation);
    } catch (error) {
      invocation.finish();
      return failed(call, tool, error);
    }
    if (isPromiseLike(value)) return settle(call, tool, value, invocation);
    invocation.finish();
    return executed(call, tool, value);
  },
  describe({ tool }) {
    const mutability = mutabilityOf(tool);
    // The step's mutates flag has no third value: a per-call tool may mutate, and says why.
    const mutates = mutability === 'depends_on_arguments' ? '; mutating depends on arguments' : '';
    const timeout = tool.hardTimeout
      ? `timeout ${tool.timeoutMs} ms, hard: TIMEOUT is returned at the deadline without waiting for the handler`
      : `timeout ${tool.timeoutMs} ms, soft: the signal aborts at the deadline and a late result carries meta.timeout_exceeded`;
    return [
      describeStep(
        'execute',
        'execution',
        'active',
        true,
        mutability !== 'read_only',
        `handler(args, { context, signal, caller }); no _ctx in args; ${timeout}${mutates}`,
      ),
      describeStep(
        'contain_exception',
        'boundary',
        'active',
        false,
        false,
        'wraps execute; any throw (an Error or any other value) is mapped to INTERNAL_ERROR, so call() never rejects',
        'execute',
      ),
    ];
  },
};
