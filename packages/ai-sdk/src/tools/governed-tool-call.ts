import {
  ToolErrorCode,
  generateRequestId,
  isMutatingCall,
  type AnyToolDefinition,
  type ToolArgs,
  type ToolContext,
  type ToolResult,
} from '@milpa/core';
import type { ModelMessage } from 'ai';
import { digestToolInput } from '../approval/digest-tool-input.js';
import { hasToolCall, readSdkApproval } from '../approval/read-sdk-approval.js';
import type { ToolApprovalLedger, ToolApprovalTicket } from '../approval/tool-approval-ledger.js';
import type { GovernedCallOptions, GovernedToolRegistry } from '../registry/governed-tool-registry.js';
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
  /** Where issued approval requests are kept. */
  readonly ledger: ToolApprovalLedger;
  /** How long an approval request stays answerable, in milliseconds. */
  readonly approvalTtlMs: number;
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

/** Control fields the adapter owns: a model's own `confirm_token` never reaches the registry. */
const ADAPTER_OWNED_FIELDS = ['confirm_token'] as const;

const GATING_STEPS = new Set(['confirm', 'approve']);
const LIVE_PRESENCES = new Set(['active', 'conditional']);

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isArgs(value: unknown): value is ToolArgs {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutOwnedFields(input: ToolArgs): ToolArgs {
  if (!ADAPTER_OWNED_FIELDS.some((field) => Object.hasOwn(input, field))) return input;
  const copy: Record<string, unknown> = { ...input };
  for (const field of ADAPTER_OWNED_FIELDS) delete copy[field];
  return copy;
}

/** The confirmation token of a result of the registry's confirm-token flow, or null. */
function pendingToken(result: ToolResult): string | null {
  return result.success && result.requiresConfirmation() ? result.getConfirmToken() : null;
}

/** The id of a call the registry's approval gate held, or null. */
function heldApprovalId(result: ToolResult): string | null {
  if (result.getCode() !== ToolErrorCode.APPROVAL_PENDING) return null;
  const id = result.meta['approval_id'];
  return typeof id === 'string' ? id : null;
}

const BINDING_REFUSALS: Readonly<Record<string, string>> = Object.freeze({
  tool_mismatch: 'the approval was issued for another tool',
  arguments_changed: 'the arguments differ from the ones the person was asked to approve',
  principal_mismatch: 'the approval was issued for another principal',
  channel_mismatch: 'the approval was issued on another channel',
  run_mismatch: 'the approval was issued in another run',
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
    if (!isArgs(input)) return true;
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
    const needed = this.requiresApproval(input);
    if (!needed || hasToolCall(call.messages, call.toolCallId)) return needed;
    try {
      await this.#settings.ledger.issue(await this.#ticket(call.toolCallId, input));
    } catch {
      // No ticket: the approval cannot run the call later (fail-closed); the request still shows.
    }
    return true;
  }

  async #ticket(toolCallId: string, input: unknown): Promise<ToolApprovalTicket> {
    const { definition, context, approvalTtlMs } = this.#settings;
    const now = Date.now();
    return {
      toolCallId,
      toolName: definition.name,
      inputDigest: await digestToolInput(input),
      principal: context.principal,
      channel: context.channel,
      runId: context.runId,
      issuedAt: new Date(now),
      expiresAt: new Date(now + approvalTtlMs),
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
    const options: GovernedCallOptions = call.abortSignal === undefined ? {} : { signal: call.abortSignal };
    const args = isArgs(input) ? withoutOwnedFields(input) : input;
    let approved: { readonly reason: string | null } | null = null;
    if (this.requiresApproval(input)) {
      const check = await this.#checkApproval(input, call);
      if ('refusal' in check) return check.refusal;
      approved = check;
    }
    let result = await registry.call(definition.name, args, context, options);
    const token = pendingToken(result);
    if (token !== null) {
      if (approved === null) {
        // Nobody approved this call: the token stays with the adapter, the model cannot confirm itself.
        return adapterRefusal(
          ToolErrorCode.CONFIRMATION_REQUIRED,
          `Calling '${definition.name}' needs a person's approval; nothing ran. Ask the user, then call it again.`,
        );
      }
      // The person's approval of exactly this call is the confirmation; the pipeline runs again in full.
      result = await registry.call(definition.name, { ...(args as ToolArgs), confirm_token: token }, context, options);
    }
    const heldId = heldApprovalId(result);
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
    let redemption;
    try {
      redemption = await this.#settings.ledger.redeem(call.toolCallId, new Date());
    } catch (error) {
      return {
        refusal: adapterRefusal(
          ToolErrorCode.STORE_UNAVAILABLE,
          `Call to '${name}' not run: the approval ledger failed (${messageOf(error)}).`,
        ),
      };
    }
    if (!redemption.ok) {
      const why = {
        not_issued: 'no approval was requested for this call',
        used: 'its approval was already used',
        expired: 'its approval expired',
      }[redemption.refusal];
      return refuse(redemption.refusal, why);
    }
    const mismatch = await this.#bindingMismatch(redemption.ticket, input);
    if (mismatch !== null) return refuse(mismatch, BINDING_REFUSALS[mismatch] ?? mismatch);
    return { reason: answer.reason };
  }

  async #bindingMismatch(ticket: ToolApprovalTicket, input: unknown): Promise<string | null> {
    const { definition, context } = this.#settings;
    if (ticket.toolName !== definition.name) return 'tool_mismatch';
    if (ticket.principal !== context.principal) return 'principal_mismatch';
    if (ticket.channel !== context.channel) return 'channel_mismatch';
    if (ticket.runId !== context.runId) return 'run_mismatch';
    if (ticket.inputDigest !== (await digestToolInput(input))) return 'arguments_changed';
    return null;
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
        message: `${pending.ok ? '' : pending.message} The approval given in the conversation could not be recorded: ${grant.error ?? 'refused'}`,
      };
    }
    return toAiSdkToolOutput(await registry.resume(approvalId, context, options));
  }
}
