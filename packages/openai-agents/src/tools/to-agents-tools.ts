import {
  MilpaError,
  ToolContext,
  ToolErrorCode,
  ToolResult,
  generateRequestId,
  describeRefusalForModel,
  readInBandControls,
  type AnyToolDefinition,
  type ApprovalBinding,
  type ApprovalStore,
  type GovernedCallOptions,
  type JsonSchema,
  type Logger,
} from '@milpa/core';
import { isRecord } from '@milpa/core/kit';
import { tool, type FunctionTool, type RunContext } from '@openai/agents';
import { APPROVAL_GRANT_KEY, issueApprovalGrant, revokeApprovalGrant } from '../approval/approval-grant.js';
import { closeRejectedRunCall, holdRunCall, redeemRunCall, runCallBinding } from '../approval/held-run-calls.js';
import type { AgentsToolRegistry } from '../registry/agents-tool-registry.js';
import { toModelOutput } from '../results/to-model-output.js';
import { callNeedsApproval } from './call-needs-approval.js';
import { dropStrictNulls } from './drop-strict-nulls.js';
import { isStrictCompatible } from './is-strict-compatible.js';

/** Options of {@link toAgentsTools}. */
export interface AgentsToolsOptions {
  /**
   * Where the calls a run interrupts for are held until the person decides; default the
   * registry's approval store. A run state resumed in another process finds its held calls when
   * both processes share this store (`SqliteStores`, `RedisStores`).
   */
  readonly approvalStore?: ApprovalStore;
  /** Seconds a call the run interrupted for stays approvable (default 3,600); later approvals are refused. */
  readonly approvalTtlSeconds?: number;
  /**
   * `'auto'` (default): a tool whose input schema can be made strict is sent in strict mode (every
   * property required, optional ones nullable, `null` dropped again before the call); a schema with
   * open objects (`additionalProperties` other than `false`, `patternProperties`) is sent as it is,
   * non-strict. `false`: every tool non-strict.
   */
  readonly strict?: 'auto' | false;
  /**
   * Where the refusals the adapter makes itself are reported (a `warn` line with `tool`,
   * `request_id`, `code` and `approval_refusal`): forged, replayed or late approvals and reserved
   * arguments never reach the registry, so its audit does not show them. Default none.
   */
  readonly logger?: Logger;
}

const DEFAULT_TTL_SECONDS = 3_600;

function invalid(message: string): MilpaError {
  return new MilpaError(message, { code: 'INVALID_ARGUMENT' });
}

function checkRegistry(registry: AgentsToolRegistry): void {
  const methods = ['listToolsFor', 'call', 'getDefinition'] as const;
  if (typeof registry !== 'object' || registry === null || methods.some((method) => typeof registry[method] !== 'function')) {
    throw invalid(
      'toAgentsTools needs a registry with listToolsFor(), call() and getDefinition(), such as ToolRegistry from @milpa/tool-runtime.',
    );
  }
}

function ttlOf(options: AgentsToolsOptions): number {
  const ttl = options.approvalTtlSeconds ?? DEFAULT_TTL_SECONDS;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1)
    throw invalid(`approvalTtlSeconds must be a whole number of seconds >= 1, got ${String(ttl)}.`);
  return ttl * 1_000;
}

function storeOf(registry: AgentsToolRegistry, options: AgentsToolsOptions): ApprovalStore {
  const store = options.approvalStore ?? (typeof registry.getApprovalStore === 'function' ? registry.getApprovalStore() : undefined);
  if (
    typeof store !== 'object' ||
    store === null ||
    typeof store.open !== 'function' ||
    typeof store.get !== 'function' ||
    typeof store.redeem !== 'function'
  ) {
    throw invalid('toAgentsTools needs an approval store: pass approvalStore, or a registry with getApprovalStore().');
  }
  return store;
}

/**
 * The model's arguments as the adapter passes them on, or the refusal of arguments it does not.
 * Control values are not carried in-band here (`accept: []`): confirmations and approvals come from
 * the person running the agent, through the run's interruptions, so a `confirm_token` or
 * `approval_id` the model sends is refused (`VALIDATION_ERROR`), never passed on or dropped.
 */
function readArguments(
  toolName: string,
  input: unknown,
  requestId: string,
): { readonly args: Readonly<Record<string, unknown>> } | { readonly refusal: ToolResult } {
  const meta = { tool: toolName, request_id: requestId };
  if (!isRecord(input)) {
    return {
      refusal: ToolResult.failure(ToolErrorCode.VALIDATION_ERROR, `Arguments for '${toolName}' must be a JSON object.`, null, meta),
    };
  }
  const read = readInBandControls(input, { accept: [] });
  if (!read.ok) {
    const message =
      `'${read.key}' cannot be sent by the model: ` +
      'confirmations and approvals come from the person running the agent. ' +
      'Nothing ran.';
    return { refusal: ToolResult.failure(read.code, message, null, meta) };
  }
  return { args: read.args as Readonly<Record<string, unknown>> };
}

/** A plain copy of a tool's input schema: the SDK rewrites strict schemas, the registered definition stays as it is. */
function parametersOf(schema: JsonSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

interface ToolBinding {
  readonly registry: AgentsToolRegistry;
  readonly context: ToolContext;
  /** The run's held calls, on core's approval binding. */
  readonly approvals: ApprovalBinding;
  readonly definition: AnyToolDefinition;
  /** Whether the tool is sent in strict mode (its optional fields may come as null). */
  readonly strict: boolean;
  /** Where the adapter reports the refusals it makes itself, or null. */
  readonly logger: Logger | null;
}

/** The arguments as the tool reads them (see {@link dropStrictNulls}); anything but an object as it is. */
function argumentsOf(binding: ToolBinding, input: unknown): unknown {
  return binding.strict ? dropStrictNulls(binding.definition.inputSchema, input) : input;
}

/** The SDK's approval decision on one call of the tool it knows as `sdkName`. */
function isApprovedInRun(runContext: RunContext, sdkName: string, callId: string): boolean {
  try {
    return runContext.isToolApproved({ toolName: sdkName, callId }) === true;
  } catch {
    return false;
  }
}

async function decideApproval(
  binding: ToolBinding,
  sdkName: string,
  runContext: RunContext,
  input: unknown,
  callId: string | undefined,
): Promise<boolean> {
  const { definition, context } = binding;
  try {
    // A call the run already approved is never held again. The SDK asks again when an approved run
    // resumes with new tool objects (another process, from a saved state, in @openai/agents
    // 0.20): a fresh hold for whoever resumes would then match the old approval, and the call would
    // run for a caller nobody approved. Without a hold, `execute` refuses such a call.
    if (typeof callId === 'string' && callId !== '' && isApprovedInRun(runContext, sdkName, callId)) return true;
    // Arguments the adapter refuses never reach the registry: no interruption for them.
    const read = readArguments(definition.name, input, '');
    if ('refusal' in read) return false;
    const args = argumentsOf(binding, read.args) as Readonly<Record<string, unknown>>;
    const callContext = typeof callId === 'string' && callId !== '' ? context.with({ requestId: callId }) : context;
    if (!callNeedsApproval(binding.registry, definition, args, callContext)) return false;
    // Without a call id there is nothing to bind an approval to: the run asks, and execution refuses.
    if (typeof callId === 'string' && callId !== '') await holdRunCall(binding.approvals, definition.name, callId, args, callContext);
    return true;
  } catch {
    // Fail-closed: when the decision cannot be made, the person is asked (and a call whose hold
    // could not be stored is refused when it would run).
    return true;
  }
}

/** Runs a call whose held call was just redeemed, with a one-use grant for the approval gate. */
async function runApproved(
  binding: ToolBinding,
  args: Readonly<Record<string, unknown>>,
  callContext: ToolContext,
  options: GovernedCallOptions,
): Promise<ToolResult> {
  const { registry, definition } = binding;
  const grant = issueApprovalGrant({
    toolName: definition.name,
    requestId: callContext.requestId,
    principal: callContext.principal,
    channel: callContext.channel,
    runId: callContext.runId,
  });
  const granted = callContext.with({ extra: { ...callContext.extra, [APPROVAL_GRANT_KEY]: grant } as Record<string, unknown> });
  try {
    const result = await registry.call(definition.name, args, granted, options);
    // The person's approval in the run is the confirmation the registry asks for: replayed once,
    // with the token the registry bound to this caller; the first call's arguments still win.
    const confirmation = result.getConfirmationRequest();
    if (confirmation === null) return result;
    return await registry.call(definition.name, args, granted, { ...options, confirmToken: confirmation.token });
  } finally {
    // A call that stopped before the approval gate leaves an unspent grant: it must not outlive it.
    revokeApprovalGrant(grant);
  }
}

/**
 * A refusal the adapter made itself, before the registry saw the call (so it is not in the
 * registry's audit): reported to the adapter's logger, then read by the model.
 */
function refuseHere(binding: ToolBinding, result: ToolResult, requestId: string): string {
  const logger = binding.logger;
  if (logger !== null) {
    const refusal = describeRefusalForModel(result);
    const details = {
      tool: binding.definition.name,
      request_id: requestId,
      code: refusal.code,
      ...(refusal.approval_refusal === undefined ? {} : { approval_refusal: refusal.approval_refusal }),
    };
    try {
      logger.warn(
        details,
        `[openai-agents] call to '${binding.definition.name}' refused before it reached the registry: ${result.error ?? 'refused'}`,
      );
    } catch {
      // A failing logger never changes what the model reads.
    }
  }
  return toModelOutput(result);
}

async function executeCall(
  binding: ToolBinding,
  sdkName: string,
  input: unknown,
  runContext: RunContext,
  details: { toolCall?: { callId?: unknown }; signal?: AbortSignal } | undefined,
): Promise<string> {
  const { registry, definition, context } = binding;
  const rawCallId = details?.toolCall?.callId;
  const callId = typeof rawCallId === 'string' && rawCallId !== '' ? rawCallId : null;
  const requestId = callId ?? generateRequestId();
  const options: GovernedCallOptions = details?.signal === undefined ? {} : { signal: details.signal };
  try {
    const read = readArguments(definition.name, input, requestId);
    if ('refusal' in read) return refuseHere(binding, read.refusal, requestId);
    const args = argumentsOf(binding, read.args) as Readonly<Record<string, unknown>>;
    const callContext = context.with({ requestId });
    let needsApproval: boolean;
    try {
      needsApproval = callNeedsApproval(registry, definition, args, callContext);
    } catch {
      needsApproval = true;
    }
    if (!needsApproval) return toModelOutput(await registry.call(definition.name, args, callContext, options));
    if (callId === null || !isApprovedInRun(runContext, sdkName, callId)) {
      return refuseHere(
        binding,
        ToolResult.failure(
          ToolErrorCode.APPROVAL_DENIED,
          `Call to '${definition.name}' needs the approval of the person running the agent, and it was not approved. Nothing ran.`,
          null,
          {
            tool: definition.name,
            request_id: requestId,
          },
        ),
        requestId,
      );
    }
    const refused = await redeemRunCall(binding.approvals, definition.name, callId, args, callContext);
    if (refused !== null) return refuseHere(binding, refused, requestId);
    return toModelOutput(await runApproved(binding, args, callContext, options));
  } catch {
    // The registry contract never rejects; a registry that does still must not end the run.
    return refuseHere(
      binding,
      ToolResult.failure(ToolErrorCode.INTERNAL_ERROR, `Call to '${definition.name}' failed inside the registry.`, null, {
        tool: definition.name,
        request_id: requestId,
      }),
      requestId,
    );
  }
}

/** The call ids of this tool that the person rejected one by one, as the run context records them. */
function rejectedCallIds(runContext: RunContext, sdkName: string): readonly string[] {
  const record = (runContext.toJSON().approvals as Readonly<Record<string, { rejected?: unknown } | undefined>>)[sdkName];
  const rejected = record?.rejected;
  return Array.isArray(rejected) ? rejected.filter((callId): callId is string => typeof callId === 'string') : [];
}

/** Rejections already closed, per run context, so each costs one store round trip. */
const closedRejections = new WeakMap<RunContext, Set<string>>();

/**
 * Before each model turn: the held calls of this tool that the person rejected are closed in the
 * store, so the rejection reaches Milpa even though the call never runs.
 */
async function closeRejections(binding: ToolBinding, sdkName: string, runContext: RunContext): Promise<void> {
  try {
    const closed = closedRejections.get(runContext) ?? new Set<string>();
    closedRejections.set(runContext, closed);
    for (const callId of rejectedCallIds(runContext, sdkName)) {
      // Approval wins over rejection in the run (the SDK runs such a call): it is not closed here.
      if (closed.has(callId) || isApprovedInRun(runContext, sdkName, callId)) continue;
      closed.add(callId);
      await closeRejectedRunCall(binding.approvals, binding.definition.name, callId, binding.context);
    }
  } catch {
    // A run context that cannot be read leaves held calls to expire; the run itself goes on.
  }
}

/**
 * A registry's tools as native OpenAI Agents SDK tools, holding exactly the tools `context` may
 * call (`registry.listToolsFor(context)`: scopes, channel policy, deny list). Each call runs the
 * registry's whole pipeline with the model's tool call id as request id and the run's abort
 * signal. A call that needs a person (it mutates and meets an approval gate, or asks for a
 * confirmation) interrupts the run; `state.approve()` lets exactly that call with exactly those
 * arguments run once, and `state.reject()` gives the model the denial. Every refusal reaches the
 * model as readable tool output (`{"error":{"code":…,"message":…}}`), never as an error that ends
 * the run.
 *
 * @example
 * const registry = new ToolRegistry({ approvalGates: { delete_note: agentsApprovalGate() } });
 * const agent = new Agent({ name: 'notes', tools: await toAgentsTools(registry, ToolContext.web('user:42', ['notes:write'])) });
 * const result = await run(agent, 'Delete note 7');
 * for (const interruption of result.interruptions) result.state.approve(interruption);
 * const resumed = await run(agent, result.state); // delete_note runs once
 * @throws MilpaError `INVALID_ARGUMENT` (as a rejection) for a registry without the governed calls,
 *   a context that is not a `ToolContext`, no approval store, an invalid TTL or logger, or two
 *   tools whose names the SDK maps to the same tool name.
 */
export async function toAgentsTools(
  registry: AgentsToolRegistry,
  context: ToolContext,
  options: AgentsToolsOptions = {},
): Promise<FunctionTool[]> {
  checkRegistry(registry);
  if (!(context instanceof ToolContext)) throw invalid('toAgentsTools needs a ToolContext: the tools are those this caller may call.');
  if (options.strict !== undefined && options.strict !== 'auto' && options.strict !== false)
    throw invalid(`strict must be 'auto' or false, got ${String(options.strict)}.`);
  const ttlMs = ttlOf(options);
  if (
    options.logger !== undefined &&
    (typeof options.logger !== 'object' || options.logger === null || typeof options.logger.warn !== 'function')
  ) {
    throw invalid('logger must have a warn() method.');
  }
  const approvals = runCallBinding(storeOf(registry, options), ttlMs);
  const definitions = await registry.listToolsFor(context);
  const names = new Set<string>();
  return definitions.map((definition) => {
    const strict = options.strict !== false && isStrictCompatible(definition.inputSchema);
    const binding: ToolBinding = { registry, context, approvals, definition, strict, logger: options.logger ?? null };
    let sdkName = definition.name;
    const created = tool({
      name: definition.name,
      description: definition.description,
      // The SDK's option types tell strict from non-strict schemas at compile time; which one a
      // registered tool gets is only known here, at run time.
      parameters: parametersOf(definition.inputSchema) as never,
      strict: strict as false,
      needsApproval: (runContext: RunContext, input: unknown, callId?: string) =>
        decideApproval(binding, sdkName, runContext, input, callId),
      isEnabled: async ({ runContext }: { runContext: RunContext }) => {
        await closeRejections(binding, sdkName, runContext);
        return true;
      },
      execute: (input: unknown, runContext?: RunContext, details?: { toolCall?: { callId?: unknown }; signal?: AbortSignal }) =>
        executeCall(binding, sdkName, input, runContext as RunContext, details),
    });
    sdkName = created.name;
    if (names.has(sdkName)) throw invalid(`Two tools map to the OpenAI Agents tool name '${sdkName}'; rename one of them.`);
    names.add(sdkName);
    return created as FunctionTool;
  });
}
