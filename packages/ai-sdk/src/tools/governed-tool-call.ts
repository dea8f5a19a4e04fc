import {
  ToolErrorCode,
  generateRequestId,
  isMutatingCall,
  readInBandControls,
  type AnyToolDefinition,
  type ApprovalBinding,
  type ApprovalBindingRefusal,
  type BoundToolCall,
  type GovernedCallOptions,
  type InBandControlKey,
  type ToolContext,
  type ToolResult,
} from '@milpa/core';
import { isRecord, messageOf } from '@milpa/core/kit';
import type { ModelMessage } from 'ai';
import { hasToolCall, readSdkApproval } from '../approval/read-sdk-approval.js';
import type { GovernedToolRegistry } from '../registry/governed-tool-registry.js';
import { adapterRefusal, toAiSdkToolOutput, type AiSdkToolOutput } from '../results/ai-sdk-tool-output.js';
import type { AiSdkApprovalMode } from './ai-sdk-tools-options.js';

/** Everything one adapted tool needs, fixed when the tool set is built. */
export interface GovernedToolSettings {
  /** The registry every call runs through. */
  readonly registry: GovernedToolRegistry;
  /** The tool, as the registry listed it for the context. */
  readonly definition: AnyToolDefinition;
  /** Who calls. */
  readonly context: ToolContext;
  /** Which calls go through the AI SDK's approval flow. */
  readonly approval: AiSdkApprovalMode;
  /** Who grants held calls a person approved, or null to leave them held. */
  readonly approver: ToolContext | null;
  /** The tool that grants held calls. */
  readonly resolveTool: string;
  /** Where issued approval requests are bound to their calls (core's approval binding). */
  readonly approvals: ApprovalBinding;
}

/** What the AI SDK hands `needsApproval` and `execute` about the call. */
export interface SdkCallInfo {
  /** The AI SDK's tool call id. */
  readonly toolCallId: string;
  /** The conversation the call was made in (without the assistant message holding the call, when the model has just made it). */
  readonly messages: readonly ModelMessage[];
  /** The run's abort signal, for `execute`. */
  readonly abortSignal?: AbortSignal | undefined;
}

/**
 * The control values this adapter carries in-band: the `approval_id` of a call the registry's gate
 * holds, which the model is told and may call again with once someone else approved it. A
 * `confirm_token` is not carried: the person's approval in the AI SDK is the confirmation, and the
 * model never sees a token; one it sends is refused.
 */
const CARRIED_CONTROLS: readonly InBandControlKey[] = ['approval_id'];

const GATING_STEPS = new Set(['confirm', 'approve']);
const LIVE_PRESENCES = new Set(['active', 'conditional']);

/** What the model reads for each refusal of the approval binding, under the name the wire carries. */
const BINDING_REFUSALS: Readonly<Record<Exclude<ApprovalBindingRefusal, 'unavailable'>, readonly [string, string]>> = Object.freeze({
  not_found: ['not_issued', 'no approval was requested for this call'],
  used: ['used', 'its approval was already used'],
  expired: ['expired', 'its approval expired'],
  tool_mismatch: ['tool_mismatch', 'the approval was issued for another tool'],
  arguments_changed: ['arguments_changed', 'the arguments differ from the ones the person was asked to approve'],
  principal_mismatch: ['principal_mismatch', 'the approval was issued for another principal'],
  channel_mismatch: ['channel_mismatch', 'the approval was issued on another channel'],
  run_mismatch: ['run_mismatch', 'the approval was issued in another run'],
});

/**
 * One adapted tool: decides whether a call needs a person's approval, records the approval
 * requests it issues, and runs calls through the registry, turning every outcome into what the
 * model reads. Nothing here throws into the agent loop.
 */
export class GovernedToolCall {
  readonly #settings: GovernedToolSettings;
  #gated: boolean | null = null;

  constructor(settings: GovernedToolSettings) {
    this.#settings = settings;
  }

  /** Whether the registry confirms or holds this tool's mutating calls for this caller. */
  #registryGates(): boolean {
    if (this.#gated !== null) return this.#gated;
    const { registry, definition, context } = this.#settings;
    let gated = true;
    try {
      const plan = typeof registry.inspect === 'function' ? registry.inspect(definition.name, context) : null;
      // Without a plan nothing proves the registry lets a mutating call through unasked: ask a person.
      if (plan !== null) gated = plan.steps.some((step) => GATING_STEPS.has(step.kind) && LIVE_PRESENCES.has(step.presence));
    } catch {
      gated = true;
    }
    this.#gated = gated;
    return gated;
  }

  /** Whether a call with `input` goes through the AI SDK's approval flow. */
  requiresApproval(input: unknown): boolean {
    const { definition, approval } = this.#settings;
    if (definition.requiresConfirmation) return true;
    // Arguments that are not an object are refused by validation; asking a person costs nothing.
    if (!isRecord(input)) return true;
    if (!isMutatingCall(definition, input)) return false;
    return approval === 'mutating' || this.#registryGates();
  }

  /**
   * The AI SDK's `needsApproval`. When the model has just made the call (it is not yet in the
   * conversation), the approval request about to be issued is recorded, bound to the call id,
   * the arguments' digest and the caller. When the AI SDK re-checks an approval answered in the
   * conversation, nothing is recorded: a call the server never asked about has no ticket.
   */
  async needsApproval(input: unknown, call: SdkCallInfo): Promise<boolean> {
    // A control value this adapter does not carry is refused at execution: nobody is asked about it.
    if (!readInBandControls(input, { accept: CARRIED_CONTROLS }).ok) return false;
    const needed = this.requiresApproval(input);
    if (!needed || hasToolCall(call.messages, call.toolCallId)) return needed;
    // A binding that cannot be stored leaves the approval unable to run the call (fail-closed); the request still shows.
    await this.#settings.approvals.bind(this.#bound(call.toolCallId, input));
    return true;
  }

  /** The call as the person is asked about it: the tool call id, the arguments as the model sent them, the caller. */
  #bound(toolCallId: string, input: unknown): BoundToolCall {
    const { definition, context } = this.#settings;
    return {
      toolCallId,
      toolName: definition.name,
      args: input,
      principal: context.principal,
      channel: context.channel,
      runId: context.runId,
    };
  }

  /** The AI SDK's `execute`: the call through the registry, every outcome a result the model reads. */
  async execute(input: unknown, call: SdkCallInfo): Promise<AiSdkToolOutput> {
    try {
      return await this.#execute(input, call);
    } catch (error) {
      return adapterRefusal(
        ToolErrorCode.INTERNAL_ERROR,
        `The call to '${this.#settings.definition.name}' failed in the AI SDK adapter: ${messageOf(error)}`,
      );
    }
  }

  async #execute(input: unknown, call: SdkCallInfo): Promise<AiSdkToolOutput> {
    const { registry, definition } = this.#settings;
    const context = this.#settings.context.with({ requestId: call.toolCallId });
    const read = readInBandControls(input, { accept: CARRIED_CONTROLS });
    if (!read.ok) return adapterRefusal(read.code, `${read.message} Nothing ran.`);
    const options: GovernedCallOptions = { ...(call.abortSignal === undefined ? {} : { signal: call.abortSignal }), ...read.controls };
    const args = read.args;
    let approved: { readonly reason: string | null } | null = null;
    if (this.requiresApproval(input)) {
      const check = await this.#checkApproval(input, call);
      if ('refusal' in check) return check.refusal;
      approved = check;
    }
    let result = await registry.call(definition.name, args, context, options);
    const confirmation = result.getConfirmationRequest();
    if (confirmation !== null) {
      if (approved === null) {
        // Nobody approved this call: the token stays with the adapter, the model cannot confirm itself.
        return adapterRefusal(
          ToolErrorCode.CONFIRMATION_REQUIRED,
          `Calling '${definition.name}' needs a person's approval; nothing ran. Ask the user, then call it again.`,
        );
      }
      // The person's approval of exactly this call is the confirmation; the pipeline runs again in full.
      result = await registry.call(definition.name, args, context, { ...options, confirmToken: confirmation.token });
    }
    const heldId = result.getPendingApproval()?.approvalId ?? null;
    if (heldId !== null && approved !== null && this.#settings.approver !== null) {
      return this.#grantAndResume(heldId, result, approved.reason, context, options);
    }
    return toAiSdkToolOutput(result);
  }

  /** The person's approval, read from the conversation and bound to the ticket issued for this call. */
  async #checkApproval(
    input: unknown,
    call: SdkCallInfo,
  ): Promise<{ readonly reason: string | null } | { readonly refusal: AiSdkToolOutput }> {
    const name = this.#settings.definition.name;
    const refuse = (refusal: string, why: string) => ({
      refusal: adapterRefusal(ToolErrorCode.APPROVAL_INVALID, `Call to '${name}' not run: ${why}.`, { approval_refusal: refusal }),
    });
    const answer = readSdkApproval(call.messages, call.toolCallId);
    if (answer.status === 'denied') return refuse('denied', 'the person denied it');
    if (answer.status === 'missing') return refuse('not_approved', "it needs a person's approval, and none was given for this call");
    const redemption = await this.#settings.approvals.redeem(this.#bound(call.toolCallId, input));
    if (redemption.ok) return { reason: answer.reason };
    if (redemption.refusal === 'unavailable') {
      return {
        refusal: adapterRefusal(ToolErrorCode.STORE_UNAVAILABLE, `Call to '${name}' not run: the approval store failed (fail-closed).`),
      };
    }
    const [wire, why] = BINDING_REFUSALS[redemption.refusal];
    return refuse(wire, why);
  }

  /**
   * The registry's approval gate held a call a person approved in the AI SDK: grant it as the
   * configured approver (the gate's rules decide whether that grant counts), then resume it.
   */
  async #grantAndResume(
    approvalId: string,
    held: ToolResult,
    reason: string | null,
    context: ToolContext,
    options: GovernedCallOptions,
  ): Promise<AiSdkToolOutput> {
    const { registry, resolveTool } = this.#settings;
    const approver = this.#settings.approver as ToolContext;
    const grantArgs = { request_id: approvalId, decision: 'grant', principal: approver.principal, ...(reason === null ? {} : { reason }) };
    const grant = await registry.call(resolveTool, grantArgs, approver.with({ requestId: generateRequestId() }), options);
    if (!grant.success) {
      const pending = toAiSdkToolOutput(held);
      return {
        ...pending,
        message:
          `${pending.ok ? '' : pending.message} ` +
          `The approval given in the conversation could not be recorded: ${grant.error ?? 'refused'}`,
      };
    }
    return toAiSdkToolOutput(await registry.resume(approvalId, context, options));
  }
}
