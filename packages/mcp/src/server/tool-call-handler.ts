import {
  ToolErrorCode,
  ToolResult,
  generateRequestId,
  readInBandControls,
  type GovernedToolRegistry,
  type ToolArgs,
  type ToolContext,
} from '@milpa/core';
import { messageOf } from '@milpa/core/kit';
import type { ToolCallOptions } from '@milpa/tool-runtime';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LogLevelThreshold } from '../caller/log-level-threshold.js';
import { McpToolCaller, type McpRequestExtra } from '../caller/mcp-tool-caller.js';
import { pendingConfirmationOf, type PendingConfirmation } from '../confirmation/pending-confirmation.js';
import { toConfirmationDeclinedResult } from '../confirmation/to-confirmation-declined-result.js';
import { toConfirmationForm } from '../confirmation/to-confirmation-form.js';
import { toConfirmationRequiredResult } from '../confirmation/to-confirmation-required-result.js';
import type { McpResultRenderer } from '../results/mcp-result-renderer.js';
import { toCallToolResult } from '../results/to-call-tool-result.js';
import { toRefusalResult } from '../results/to-refusal-result.js';
import type { McpCallInfo } from './mcp-call-info.js';
import type { McpConfirmationMode } from './mcp-server-options.js';
import { collaboratorsOf, type RegistryCollaborators } from './registry-collaborators.js';

/**
 * The `params._meta` key of a `tools/call` request that carries an idempotency key: a client that
 * retries a call (after a timeout, a dropped connection) sends the same key, and the tool runs
 * once; the retry gets the first call's result. 1 to 255 printable characters, scoped to the
 * calling principal.
 *
 * @example
 * await client.callTool({ name: 'create_invoice', arguments: { order: 7 }, _meta: { 'lat.milpa/idempotency_key': 'order-7-invoice' } });
 */
export const MCP_IDEMPOTENCY_KEY_META_KEY = 'lat.milpa/idempotency_key';

/**
 * The `params._meta` key of a `tools/call` request that carries the agent's stated reason for the
 * call, for the people asked to approve it: it reaches an approval gate as `ApprovalRequest.reason`
 * (trimmed, its secrets scrubbed, cut to 1,000 characters) and never the tool, its arguments or its
 * audit. A value that is not a string is ignored. It is the agent's own words: untrusted text.
 *
 * @example
 * await client.callTool({ name: 'delete_note', arguments: { id: 7 }, _meta: { 'lat.milpa/reason': 'The user asked to delete it.' } });
 */
export const MCP_REASON_META_KEY = 'lat.milpa/reason';

/** The `_meta` key set to `true` on a result that is an earlier call's result, replayed for a retry with the same idempotency key. */
export const MCP_IDEMPOTENT_REPLAY_META_KEY = 'lat.milpa/idempotent_replay';

/** Settings of a {@link ToolCallHandler}. */
export interface ToolCallHandlerSettings {
  /** Builds each call's context. */
  readonly contextFor: (call: McpCallInfo) => ToolContext;
  /** Renders successful results. */
  readonly renderer: McpResultRenderer;
  /** Elicit confirmations or always use tokens. */
  readonly confirmation: McpConfirmationMode;
}

/**
 * Answers `tools/call`: builds the caller's context and `ToolCaller`, runs the call through the
 * registry's pipeline with the request's abort signal, obtains a confirmation when the pipeline
 * asks for one, and maps the outcome to a `CallToolResult`. Only an unknown tool is a protocol
 * error (`InvalidParams`); every other outcome, including a fault in this layer, is a tool result.
 */
export class ToolCallHandler {
  readonly #registry: GovernedToolRegistry;
  readonly #collaborators: RegistryCollaborators;
  readonly #server: Server;
  readonly #logLevel: LogLevelThreshold;
  readonly #settings: ToolCallHandlerSettings;

  constructor(registry: GovernedToolRegistry, server: Server, logLevel: LogLevelThreshold, settings: ToolCallHandlerSettings) {
    this.#registry = registry;
    this.#collaborators = collaboratorsOf(registry);
    this.#server = server;
    this.#logLevel = logLevel;
    this.#settings = settings;
  }

  /** Runs one `tools/call`. Rejects only with `McpError(InvalidParams)` for an unknown tool. */
  async handle(name: string, args: ToolArgs, extra: McpRequestExtra): Promise<CallToolResult> {
    let context: ToolContext;
    try {
      context = this.#settings.contextFor({
        requestId: generateRequestId(),
        toolName: name,
        rpcId: extra.requestId,
        ...(extra.authInfo === undefined ? {} : { authInfo: extra.authInfo }),
        ...(extra.sessionId === undefined ? {} : { sessionId: extra.sessionId }),
      });
    } catch (error) {
      // Fail closed: without a context nothing may run.
      const failure = ToolResult.failure(ToolErrorCode.INTERNAL_ERROR, `Could not build the caller's context: ${messageOf(error)}`);
      return toRefusalResult(failure, this.#registry.getDefinition(name));
    }
    // A tool this caller is not offered in tools/list does not exist for it: the same error as an
    // unknown name, before anything else (a validation error would tell the tool exists, a
    // scope refusal which scope it needs).
    if (!(await this.#offeredTo(name, context))) throw new McpError(ErrorCode.InvalidParams, `Tool not found: ${name}`);
    // The model sends a confirmation token or an approval id back among the arguments: they are call
    // options, never arguments, so they are taken out here (both flows are carried in-band over MCP).
    const read = readInBandControls(args);
    if (!read.ok) return toRefusalResult(ToolResult.failure(read.code, read.message), this.#registry.getDefinition(name));
    const toolArgs = read.args as ToolArgs;
    const caller = new McpToolCaller(this.#server, extra, this.#logLevel, name);
    const idempotencyKey = extra._meta?.[MCP_IDEMPOTENCY_KEY_META_KEY];
    // Only the request's _meta carries a reason: an argument named `reason` stays the tool's.
    const reason = extra._meta?.[MCP_REASON_META_KEY];
    const options: ToolCallOptions = {
      ...read.controls,
      signal: extra.signal,
      caller,
      // Passed on as sent: the registry refuses a key that is not 1 to 255 printable characters.
      ...(idempotencyKey === undefined ? {} : { idempotencyKey: idempotencyKey as string }),
      ...(typeof reason === 'string' ? { reason } : {}),
    };
    const result = await this.#registry.call(name, toolArgs, context, options);
    if (result.getRefusal()?.code === ToolErrorCode.TOOL_NOT_FOUND && !this.#registry.has(name)) {
      throw new McpError(ErrorCode.InvalidParams, result.error ?? `Tool not found: ${name}`);
    }
    try {
      const pending = pendingConfirmationOf(result, name);
      if (pending !== null) return await this.#confirm(pending, toolArgs, context, options, caller);
      return this.#present(result, name, context);
    } catch (error) {
      const failure = ToolResult.failure(ToolErrorCode.INTERNAL_ERROR, `Could not present the result of '${name}': ${messageOf(error)}`);
      return toRefusalResult(failure, this.#registry.getDefinition(name));
    }
  }

  /** True when `tools/list` offers `name` to the caller of `context`; an unknown name is left to the registry to answer. */
  async #offeredTo(name: string, context: ToolContext): Promise<boolean> {
    if (!this.#registry.has(name)) return true;
    const offered = await this.#registry.listToolsFor(context);
    return offered.some((definition) => definition.name === name);
  }

  async #confirm(
    pending: PendingConfirmation,
    args: ToolArgs,
    context: ToolContext,
    options: ToolCallOptions,
    caller: McpToolCaller,
  ): Promise<CallToolResult> {
    const definition = this.#registry.getDefinition(pending.toolName);
    if (this.#settings.confirmation !== 'elicit' || !caller.capabilities.elicitation)
      return toConfirmationRequiredResult(pending, definition);
    let action: 'accept' | 'decline' | 'cancel' | 'unsupported';
    try {
      action = (await caller.elicit(toConfirmationForm(pending))).action;
    } catch {
      // The client could not show the form (an error, a timeout): the model still gets the token flow.
      return toConfirmationRequiredResult(pending, definition);
    }
    if (action === 'unsupported') return toConfirmationRequiredResult(pending, definition);
    if (action === 'accept') {
      // The replay carries the same arguments (they are validated again) and the token as the
      // confirmToken option; the pipeline
      // then runs the first call's arguments, exactly as in the two-call flow.
      const confirmed = await this.#registry.call(pending.toolName, args, context, { ...options, confirmToken: pending.token });
      return this.#present(confirmed, pending.toolName, context);
    }
    await this.#revoke(pending, context);
    return toConfirmationDeclinedResult(pending, action, definition);
  }

  /** A declined confirmation's token must not stay redeemable by a later replay. */
  async #revoke(pending: PendingConfirmation, context: ToolContext): Promise<void> {
    const store = this.#collaborators.confirmationStore;
    if (store === null) return;
    try {
      await store.consume(pending.token, pending.toolName, {
        principal: context.principal,
        channel: context.channel,
      });
    } catch {
      // The token still expires on its own; the refusal stands either way.
    }
  }

  #present(result: ToolResult, name: string, context: ToolContext): CallToolResult {
    const definition = this.#registry.getDefinition(name);
    const pending = pendingConfirmationOf(result, name);
    if (pending !== null) return toConfirmationRequiredResult(pending, definition);
    if (definition === null) return toRefusalResult(result, null);
    const presented = toCallToolResult(result, definition, context, this.#settings.renderer, this.#collaborators.outputValidator);
    if (result.outcome?.kind !== 'replayed') return presented;
    return { ...presented, _meta: { ...presented._meta, [MCP_IDEMPOTENT_REPLAY_META_KEY]: true } };
  }
}
