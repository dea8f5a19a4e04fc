import type { ToolMessage } from '@langchain/core/messages';
import {
  ApprovalBinding,
  MilpaError,
  ToolContext,
  ToolErrorCode,
  generateRequestId,
  isWaitingForPerson,
  readInBandControls,
  type AnyToolDefinition,
  type BoundToolCall,
  type GovernedCallOptions,
  type ToolResult,
} from '@milpa/core';
import { isRecord, messageOf } from '@milpa/core/kit';
import type { GovernedToolRegistry } from '../registry/governed-tool-registry.js';
import { describeRefusal, refusalMessage, toToolMessage } from '../results/to-tool-message.js';
import { HeldCalls, type PausedCall } from '../review/held-calls.js';
import type { HeldCallReview } from '../review/held-call-review.js';
import type { MilpaReviewRequest } from '../review/milpa-review-request.js';
import { readReviewDecision, type ReviewDecisionReading } from '../review/read-review-decision.js';
import { MilpaTool } from './milpa-tool.js';
import type { MilpaToolkitOptions } from './milpa-toolkit-options.js';

/** How long a reviewer's decision stays bound to the call it answers, in milliseconds. */
const REVIEW_TTL_MS = 3_600_000;

function invalid(message: string): MilpaError {
  return new MilpaError(message, { code: 'INVALID_ARGUMENT' });
}

/** The JSON Schema the model sees: an object schema, `properties` always present. */
function wireSchema(schema: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const properties = schema['properties'];
  return { ...(schema['type'] === undefined ? { type: 'object' } : {}), ...schema, properties: isRecord(properties) ? properties : {} };
}

function stringOrNull(value: string | undefined): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The review a result asks for (a held call, a confirmation token), from its outcome; null when it waits for nobody. */
function pausedCallOf(result: ToolResult, toolName: string): PausedCall | null {
  const outcome = result.outcome;
  if (!isWaitingForPerson(outcome)) return null;
  if (outcome.kind === 'confirmation_required') {
    const summary = stringOrNull(outcome.summary) ?? result.message ?? 'the call';
    return { kind: 'confirmation', token: outcome.token, expiresAt: stringOrNull(outcome.expiresAt), description: `Confirm: ${summary}` };
  }
  {
    const approvalId = outcome.approvalId;
    const expiresAt = stringOrNull(outcome.expiresAt);
    const until = expiresAt === null ? '' : ` It can be approved until ${expiresAt}.`;
    const description =
      `Approve this call to '${toolName}'? ` + `It runs once, with exactly these arguments, after Milpa checks it again.${until}`;
    return { kind: 'approval', approvalId, expiresAt, description };
  }
}

/** A paused call, ready to resume once its decision arrived. */
interface ResumableCall {
  readonly name: string;
  readonly callId: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly context: ToolContext;
  readonly options: GovernedCallOptions;
}

/** A decision that is an approve or a reject (refused answers never get this far). */
type ReviewVerdict = Exclude<ReviewDecisionReading, { kind: 'refused' }>;

/**
 * A registry's tools as LangChain tools, each call governed by Milpa's pipeline.
 *
 * `getTools(context)` holds exactly the tools `context` may call (the registry's `listToolsFor`).
 * Each call runs `registry.call` with the run's abort signal and the tool call id as the request
 * id, and answers a `ToolMessage`: a refusal is `status: 'error'` with `{ code, message, … }` as
 * JSON, never a throw that ends the run. A call the pipeline holds for approval, or asks to
 * confirm, pauses the run through LangGraph's `interrupt` (option `interrupt`) with a request in
 * the shape of LangChain's human-in-the-loop middleware; it resumes only with a decision bound to
 * its tool call id and its arguments, and the pipeline's rules run again before it executes, once.
 *
 * @example
 * import { interrupt } from '@langchain/langgraph';
 * const toolkit = new MilpaToolkit(registry, { interrupt });
 * const agent = createAgent({ model, tools: await toolkit.getTools(context), checkpointer });
 */
export class MilpaToolkit {
  readonly #registry: GovernedToolRegistry;
  readonly #interrupt: MilpaToolkitOptions['interrupt'];
  readonly #recordDecision: MilpaToolkitOptions['recordDecision'];
  readonly #held = new HeldCalls();
  readonly #decisions: ApprovalBinding | null;

  /**
   * @throws MilpaError `INVALID_ARGUMENT` when `registry` lacks `listToolsFor`, `call` or `resume`,
   *   or an option is not a function.
   */
  constructor(registry: GovernedToolRegistry, options: MilpaToolkitOptions = {}) {
    const candidate = registry as Partial<GovernedToolRegistry> | null;
    if (
      typeof candidate !== 'object' ||
      candidate === null ||
      typeof candidate.listToolsFor !== 'function' ||
      typeof candidate.call !== 'function' ||
      typeof candidate.resume !== 'function'
    ) {
      throw invalid('MilpaToolkit needs a registry with listToolsFor, call and resume (such as ToolRegistry from @milpa/tool-runtime).');
    }
    if (options.interrupt !== undefined && typeof options.interrupt !== 'function')
      throw invalid('MilpaToolkit option interrupt must be a function.');
    if (options.recordDecision !== undefined && typeof options.recordDecision !== 'function') {
      throw invalid('MilpaToolkit option recordDecision must be a function.');
    }
    this.#registry = registry;
    this.#interrupt = options.interrupt;
    this.#recordDecision = options.recordDecision;
    const store = options.approvalStore ?? (typeof registry.getApprovalStore === 'function' ? registry.getApprovalStore() : undefined);
    this.#decisions =
      store === undefined ? null : new ApprovalBinding({ store, namespace: 'langchain', ttlMs: REVIEW_TTL_MS, scope: 'caller' });
  }

  /**
   * The LangChain tools a caller in `context` may call — no more, no fewer.
   * @throws MilpaError `INVALID_ARGUMENT` when `context` is not a `ToolContext`.
   */
  async getTools(context: ToolContext): Promise<MilpaTool[]> {
    if (!(context instanceof ToolContext)) throw invalid('MilpaToolkit.getTools needs a ToolContext.');
    const definitions = await this.#registry.listToolsFor(context);
    return definitions.map((definition) => this.#toTool(definition, context));
  }

  #toTool(definition: AnyToolDefinition, context: ToolContext): MilpaTool {
    const name = definition.name;
    return new MilpaTool({
      name,
      description: definition.description,
      schema: wireSchema(definition.inputSchema),
      run: (args, toolCallId, signal) => this.#run(name, args, toolCallId, signal, context),
    });
  }

  async #run(
    name: string,
    rawArgs: unknown,
    toolCallId: string | null,
    signal: AbortSignal | undefined,
    base: ToolContext,
  ): Promise<ToolMessage> {
    const callId = toolCallId ?? generateRequestId();
    // One tool call id, one execution: a call LangGraph runs again gets the first result back.
    const options: GovernedCallOptions = {
      ...(signal === undefined ? {} : { signal }),
      ...(toolCallId === null ? {} : { idempotencyKey: toolCallId }),
    };
    const context = base.with({ requestId: callId });
    // No control value is carried in-band: confirmations and approvals reach a call only through
    // the run's own review, bound to its tool call id, so a token or id the model sends is refused.
    const read = readInBandControls(rawArgs, { accept: [] });
    if (!read.ok) {
      const message = `'${read.key}' cannot be sent by the model: confirmations and approvals come from the run's own review. Nothing ran.`;
      return refusalMessage(read.code, message, name, callId);
    }
    const args = read.args;
    const key = HeldCalls.keyOf(context, callId, name, args);
    // Without an interrupt, or a tool call id to bind a decision to, nothing can be reviewed.
    const interrupt = toolCallId === null ? undefined : this.#interrupt;
    if (interrupt === undefined) return this.#present(await this.#registry.call(name, args, context, options), name, callId);
    let paused = this.#held.get(key);
    if (paused === undefined) {
      const result = await this.#registry.call(name, args, context, options);
      const asked = pausedCallOf(result, name);
      if (asked === null) return toToolMessage(result, name, callId);
      paused = asked;
      this.#held.set(key, paused);
    }
    const heldArgs = (isRecord(args) ? args : {}) as Record<string, unknown>;
    const bound: BoundToolCall = {
      toolCallId: callId,
      toolName: name,
      args: heldArgs,
      principal: context.principal,
      channel: context.channel,
      runId: context.runId,
    };
    // The decision the run resumes with is bound to this call, its arguments and its caller (kept
    // when a restarted toolkit holds the call afresh), and is redeemed once.
    await this.#decisions?.bind(bound);
    // The first time through, interrupt() pauses the run (it throws, as LangGraph requires); when
    // the run resumes, LangGraph runs this tool again and interrupt() returns the decision.
    const answer = await interrupt(this.#reviewRequest(name, args, callId, paused));
    this.#held.delete(key);
    const reading = readReviewDecision(answer, callId, heldArgs);
    if (reading.kind === 'refused') {
      return refusalMessage(ToolErrorCode.APPROVAL_INVALID, reading.message, name, callId, { approval_refusal: reading.refusal });
    }
    if (reading.kind === 'reject') await this.#decisions?.close(bound);
    else if (this.#decisions !== null) {
      const redeemed = await this.#decisions.redeem(bound);
      if (!redeemed.ok) {
        const why = `The decision cannot run this call (${redeemed.refusal}); nothing ran.`;
        return refusalMessage(ToolErrorCode.APPROVAL_INVALID, why, name, callId, { approval_refusal: redeemed.refusal });
      }
    }
    const call: ResumableCall = { name, callId, args: heldArgs, context, options };
    return paused.kind === 'confirmation' ? this.#confirm(call, paused.token, reading) : this.#approve(call, paused.approvalId, reading);
  }

  /** A confirmation's decision: a decline runs nothing; a confirm replays the call with its token. */
  async #confirm(call: ResumableCall, token: string, reading: ReviewVerdict): Promise<ToolMessage> {
    const { name, callId } = call;
    if (reading.kind === 'reject') {
      return refusalMessage(
        'CONFIRMATION_DECLINED',
        `The person declined to confirm the call${reading.message === null ? '' : `: ${reading.message}`}. Nothing ran.`,
        name,
        callId,
      );
    }
    // The replay carries the token; the pipeline runs the first call's arguments, once.
    const confirmed = await this.#registry.call(name, call.args, call.context, { ...call.options, confirmToken: token });
    return this.#present(confirmed, name, callId);
  }

  /** A held call's decision: recorded (when the host records decisions), then resumed in Milpa on an approve. */
  async #approve(call: ResumableCall, approvalId: string, reading: ReviewVerdict): Promise<ToolMessage> {
    const { name, callId } = call;
    const review: HeldCallReview = {
      decision: reading.kind,
      approvalId,
      toolCallId: callId,
      toolName: name,
      arguments: call.args,
      context: call.context,
      message: reading.kind === 'reject' ? reading.message : null,
    };
    if (reading.kind === 'reject') {
      await this.#record(review).catch(() => undefined);
      return refusalMessage(
        ToolErrorCode.APPROVAL_DENIED,
        `A reviewer rejected the call${reading.message === null ? '' : `: ${reading.message}`}. Nothing ran.`,
        name,
        callId,
      );
    }
    try {
      await this.#record(review);
    } catch (error) {
      return refusalMessage(
        ToolErrorCode.APPROVAL_DENIED,
        `The approval could not be recorded: ${messageOf(error)}. Nothing ran.`,
        name,
        callId,
      );
    }
    // Milpa decides: the gate's resolution, the binding, authorization and rules again, one execution.
    const resumed = await this.#registry.resume(approvalId, call.context, call.options);
    return this.#present(resumed, name, callId);
  }

  /** A result after a review: as it is, unless it asks for another review, which this call cannot hold. */
  #present(result: ToolResult, name: string, callId: string): ToolMessage {
    const asked = pausedCallOf(result, name);
    return asked === null ? toToolMessage(result, name, callId) : this.#unreviewable(asked, result, name, callId);
  }

  async #record(review: HeldCallReview): Promise<void> {
    if (this.#recordDecision !== undefined) await this.#recordDecision(review);
  }

  #reviewRequest(name: string, args: unknown, toolCallId: string, paused: PausedCall): MilpaReviewRequest {
    const shown = (typeof args === 'object' && args !== null ? args : {}) as Readonly<Record<string, unknown>>;
    return {
      actionRequests: [{ name, args: shown, description: paused.description }],
      reviewConfigs: [{ actionName: name, allowedDecisions: ['approve', 'reject'] }],
      milpa: {
        kind: paused.kind,
        tool_call_id: toolCallId,
        tool: name,
        approval_id: paused.kind === 'approval' ? paused.approvalId : null,
        expires_at: paused.expiresAt,
      },
    };
  }

  /**
   * A review this run cannot hold (no `interrupt`, or no tool call id to bind it to): refused,
   * nothing ran. A confirmation token never reaches the model; a held call keeps its approval id
   * for people and the host, who may resume it with `registry.resume`.
   */
  #unreviewable(paused: PausedCall, result: ToolResult, name: string, callId: string): ToolMessage {
    if (paused.kind === 'confirmation') {
      return refusalMessage(
        ToolErrorCode.CONFIRMATION_REQUIRED,
        `${paused.description} — this call needs a person's confirmation, which this agent cannot ask for. Nothing ran.`,
        name,
        callId,
      );
    }
    const refused = describeRefusal(result);
    const expires = paused.expiresAt === null ? '' : ` (expires ${paused.expiresAt})`;
    const message =
      `Call '${name}' is held for approval under approval_id ${paused.approvalId}${expires}. Nothing ran. ` +
      'It runs only when resumed by the application once approved; calling the tool again does not resume it.';
    return refusalMessage(ToolErrorCode.APPROVAL_PENDING, message, name, callId, {
      approval_id: paused.approvalId,
      ...(paused.expiresAt === null ? {} : { expires_at: paused.expiresAt }),
      ...(refused.approval_refusal === undefined ? {} : { approval_refusal: refused.approval_refusal }),
    });
  }
}
