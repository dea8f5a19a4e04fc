import { MilpaError, ToolErrorCode, ToolResult, generateRandomId, type ToolContext } from '@milpa/core';
import type { Span } from '@opentelemetry/api';
import { buildInvocationPlan } from '../inspection/invocation-plan-builder.js';
import type { InvocationPlan } from '../inspection/invocation-plan.js';
import { RegistryWiring } from '../inspection/registry-wiring.js';
import { refusedOutcome } from '../pipeline/call-outcomes.js';
import { PipelineCall, type ToolCallOptions } from '../pipeline/pipeline-call.js';
import { PipelineRunner } from '../pipeline/pipeline-runner.js';
import type { PipelineServices } from '../pipeline/pipeline-services.js';
import type { RegisteredTool } from '../pipeline/registered-tool.js';
import { isPromiseLike, messageOf, nameOf } from '../pipeline/settle.js';
import { settleHeldCall } from '../pipeline/settle-held-call.js';
import type { Stage } from '../pipeline/stage.js';
import type { ToolCallTelemetry } from '../telemetry/tool-call-telemetry.js';
import { resolveCallContext, type DefaultContext } from './call-context.js';
import type { StartRunOptions } from './tool-registry-options.js';

const EMPTY_ARGS = Object.freeze({});
/** The shape of the approval ids the approve stage issues. */
const APPROVAL_ID = /^[0-9a-f]{32}$/;

/** What a `CallRuntime` is built from: its services (stores included), stages and fallbacks. */
export interface CallRuntimeInit {
  /** The services every stage shares: the tools, gate, validator, stores and settings. */
  readonly services: PipelineServices;
  /** The composed stages, built-in and the host's, in the order they run. */
  readonly stages: readonly Stage[];
  /** The context of a call that passes none, or null to refuse such calls. */
  readonly defaultContext: DefaultContext;
  /** The call spans and metrics, or null when telemetry is off. */
  readonly telemetry: ToolCallTelemetry | null;
}

/**
 * Runs calls: `call()` through the pipeline, `resume()` of a held call, `inspect()` of what a call
 * would do, and the runs whose histories the invocation rules read. Everything it uses (stores,
 * gate, telemetry) is handed to it at construction.
 * @internal
 */
export class CallRuntime {
  readonly #tools: ReadonlyMap<string, RegisteredTool>;
  readonly #services: PipelineServices;
  readonly #stages: readonly Stage[];
  readonly #runner: PipelineRunner;
  readonly #defaultContext: DefaultContext;
  readonly #telemetry: ToolCallTelemetry | null;

  constructor(init: CallRuntimeInit) {
    this.#services = init.services;
    this.#tools = init.services.tools;
    this.#stages = init.stages;
    this.#runner = new PipelineRunner(init.stages, init.services);
    this.#defaultContext = init.defaultContext;
    this.#telemetry = init.telemetry;
  }

  /** What is wired into this runtime, for inspection. */
  getWiring(): RegistryWiring {
    const services = this.#services;
    return new RegistryWiring(
      services.rateLimiter !== null,
      services.dispatcher !== null,
      services.gate.hasRuleProvider(),
      { call: services.rateLimit.cost, mutating: services.rateLimit.mutatingCost },
      {
        rules: services.invocation.summaries(),
        targetResolvers: services.invocation.resolvers.length,
        tidyArguments: services.tidyArguments,
        maxResultChars: services.maxResultChars,
        approvalGateFor: (toolName) => services.approvals.gateFor(toolName) !== null,
      },
    );
  }

  /** The `InvocationPlan` of tool `name` for a caller in `context`, or null for an unknown tool; executes nothing. */
  inspect(name: string, context: ToolContext): InvocationPlan | null {
    const entry = this.#tools.get(name);
    if (entry === undefined) return null;
    return buildInvocationPlan(this.#services.gate, this.#stages, entry.definition, context, this.getWiring());
  }

  /**
   * Opens an agent run whose (empty) invocation history is complete, and resolves to its id.
   * @throws MilpaError `INVALID_ARGUMENT` for a malformed `runId`; `RUN_EXISTS` when the store already knows it.
   */
  async startRun(options: StartRunOptions = {}): Promise<string> {
    const runId = options.runId ?? `run_${generateRandomId()}`;
    if (typeof runId !== 'string' || runId === '' || runId.length > 256) {
      throw new MilpaError('startRun: runId must be a non-empty string of at most 256 characters.', { code: 'INVALID_ARGUMENT' });
    }
    const opened = await this.#services.invocation.store.startRun(runId);
    if (opened !== true) {
      throw new MilpaError(`startRun: run '${runId}' already exists; a run is opened once and its history is never reset.`, {
        code: 'RUN_EXISTS',
      });
    }
    return runId;
  }

  // ---------------------------------------------------------------- the pipeline

  /**
   * Runs one call through the pipeline. Never rejects: every outcome is a `ToolResult`
   * (`meta.code` tells refusals apart). A call without a context is refused with
   * `VALIDATION_ERROR` unless the registry was built with a `defaultContext`.
   */
  async call(name: string, args: unknown = EMPTY_ARGS, context?: ToolContext, options?: ToolCallOptions): Promise<ToolResult> {
    const startedAt = performance.now();
    const telemetry = this.#telemetry;
    const span = telemetry === null ? null : telemetry.start(name, this.#tools);
    let callContext: ToolContext | null;
    try {
      callContext = resolveCallContext(context, this.#defaultContext);
    } catch (error) {
      const message = `Invalid context: ${messageOf(error)}`;
      const invalid = ToolResult.failure(ToolErrorCode.VALIDATION_ERROR, message, null, {
        tool: nameOf(name),
        took_ms: 0,
      }).withOutcome(refusedOutcome('validation_failed', ToolErrorCode.VALIDATION_ERROR, message));
      return this.#withoutContext(span, startedAt, invalid);
    }
    if (callContext === null) return this.#withoutContext(span, startedAt, this.#contextRequired(name));
    const call = new PipelineCall(this.#services, name, args, callContext, options, startedAt);
    if (telemetry !== null && span !== null) call.telemetryContext = telemetry.contextOf(span);
    let result: ToolResult;
    try {
      const outcome = this.#runner.run(call);
      result = isPromiseLike(outcome) ? await outcome : outcome;
    } catch (error) {
      // Last line of containment: a fault in the runner itself must still be a result.
      call.failClosed('pipeline', error);
      result = call.result as ToolResult;
    }
    // After the exits (audit included): a resumed held call records how it ended, awaited so the
    // outcome is in the store when the caller sees the result; the span ends once, with that result.
    if (call.approval !== null) await settleHeldCall(call, result);
    if (telemetry !== null) telemetry.finish(span, call, result);
    return result;
  }

  /**
   * Resumes a call an approval gate held, by its `approval_id`: the same as calling its tool again
   * with the held arguments and `approval_id`. It runs only when someone other than the requester
   * approved it, for the principal, channel and run that asked, before it expires, and once:
   * authorization and the invocation rules run again right before it executes, with the approved
   * arguments. Never rejects: an unknown id is `APPROVAL_INVALID`, a call not yet approved is
   * `APPROVAL_PENDING` again, a rejected one `APPROVAL_DENIED`.
   *
   * @example
   * const held = await registry.call('delete_note', { id: 7 }, agent);   // APPROVAL_PENDING
   * // … someone else grants held.data.approval_id …
   * const done = await registry.resume(held.data.approval_id, agent);    // runs delete_note once
   */
  async resume(approvalId: string, context?: ToolContext, options?: ToolCallOptions): Promise<ToolResult> {
    let held: unknown = null;
    if (typeof approvalId === 'string' && APPROVAL_ID.test(approvalId)) {
      try {
        held = await this.#services.approvals.store.get(approvalId);
      } catch (error) {
        return this.#resumeRefused(
          context,
          ToolErrorCode.APPROVAL_DENIED,
          'Resume refused: the approval store failed (fail-closed).',
          'approval_denied',
          messageOf(error),
        );
      }
    }
    const record = held as { toolName?: unknown; arguments?: unknown } | null;
    if (
      record === null ||
      typeof record !== 'object' ||
      typeof record.toolName !== 'string' ||
      typeof record.arguments !== 'object' ||
      record.arguments === null
    ) {
      return this.#resumeRefused(
        context,
        ToolErrorCode.APPROVAL_INVALID,
        'Unknown approval_id: no call is held under it.',
        'approval_invalid',
        null,
      );
    }
    // The held call's own tool and arguments, through the whole pipeline: the approve stage checks
    // the binding, the decision and the one use, and the rules run again before it executes.
    return this.call(record.toolName, record.arguments, context, { ...options, approvalId });
  }

  /** A resume refused before it could name a tool: audited, and a typed result. */
  #resumeRefused(
    context: ToolContext | undefined,
    code: ToolErrorCode,
    message: string,
    outcome: 'approval_invalid' | 'approval_denied',
    failure: string | null,
  ): ToolResult {
    let callContext: ToolContext | null;
    try {
      callContext = resolveCallContext(context, this.#defaultContext);
    } catch {
      callContext = null;
    }
    if (failure !== null) {
      // No tool or arguments are known yet: the redactor still scrubs what looks secret by its shape.
      const detail = this.#services.scrub(failure, null, '');
      this.#services.safeLog('error', { error: detail }, `[ToolRegistry] the approval store failed on resume: ${detail}`);
    }
    const caller =
      callContext === null ? {} : { request_id: callContext.requestId, channel: callContext.channel, principal: callContext.principal };
    if (callContext !== null) this.#services.audit.logOutcome(outcome, callContext, '(approval)', null, 0, message);
    const refusal = outcome === 'approval_invalid' ? { approval_refusal: 'not_found' } : {};
    return ToolResult.failure(code, message, null, { tool: null, took_ms: 0, ...caller, ...refusal }).withOutcome(
      refusedOutcome(outcome, code, message),
    );
  }

  /** A call refused before it had a context: its span and metrics still record it. */
  #withoutContext(span: Span | null, startedAt: number, result: ToolResult): ToolResult {
    if (this.#telemetry !== null) this.#telemetry.finishWithoutContext(span, result, startedAt);
    return result;
  }

  #contextRequired(name: unknown): ToolResult {
    const tool = nameOf(name);
    const remedy = 'pass a ToolContext, or build the registry with defaultContext';
    const message = `Tool call refused: a context is required to call '${tool}' (${remedy})`;
    this.#services.safeLog('warn', { tool }, `[ToolRegistry] ${message}`);
    return ToolResult.failure(ToolErrorCode.VALIDATION_ERROR, message, null, { tool, took_ms: 0 }).withOutcome(
      refusedOutcome('validation_failed', ToolErrorCode.VALIDATION_ERROR, message),
    );
  }
}
