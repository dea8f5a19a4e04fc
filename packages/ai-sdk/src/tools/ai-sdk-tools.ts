import { ApprovalBinding, MilpaError, ToolContext, type AnyToolDefinition, type ApprovalStore, type ToolArgs } from '@milpa/core';
import { jsonSchema, tool, type JSONSchema7, type Tool } from 'ai';
import { InMemoryToolApprovalLedger } from '../approval/in-memory-tool-approval-ledger.js';
import type { GovernedToolRegistry } from '../registry/governed-tool-registry.js';
import type { AiSdkToolOutput } from '../results/ai-sdk-tool-output.js';
import type { AiSdkToolsOptions } from './ai-sdk-tools-options.js';
import { GovernedToolCall } from './governed-tool-call.js';

/** One Milpa tool as an AI SDK tool: JSON-Schema input, governed `execute`, Milpa-driven `needsApproval`. */
export type AiSdkTool = Tool<ToolArgs, AiSdkToolOutput>;

/** The AI SDK `ToolSet` {@link aiSdkTools} builds: one entry per tool the context may call, by name. */
export type AiSdkToolSet = Record<string, AiSdkTool>;

const DEFAULT_APPROVAL_TTL_SECONDS = 3_600;
const DEFAULT_RESOLVE_TOOL = 'resolve_verification';

/** One in-memory store per registry without its own, so tool sets built per request share the approval requests they issue. */
const defaultStores = new WeakMap<object, ApprovalStore>();

function approvalStoreFor(registry: GovernedToolRegistry, options: AiSdkToolsOptions): ApprovalStore {
  if (options.approvalStore !== undefined) return options.approvalStore;
  if (typeof registry.getApprovalStore === 'function') return registry.getApprovalStore();
  let store = defaultStores.get(registry);
  if (store === undefined) {
    store = new InMemoryToolApprovalLedger();
    defaultStores.set(registry, store);
  }
  return store;
}

function invalid(message: string): MilpaError {
  return new MilpaError(`aiSdkTools: ${message}`, { code: 'INVALID_ARGUMENT' });
}

function checkOptions(registry: unknown, options: AiSdkToolsOptions): void {
  const methods = ['listToolsFor', 'call', 'resume', 'getDefinition'] as const;
  if (
    typeof registry !== 'object' ||
    registry === null ||
    methods.some((method) => typeof (registry as Record<string, unknown>)[method] !== 'function')
  ) {
    throw invalid(`registry must be a governed registry (${methods.join(', ')}), such as @milpa/tool-runtime's ToolRegistry.`);
  }
  if (typeof options !== 'object' || options === null) throw invalid('options must be an object with a context.');
  if (!(options.context instanceof ToolContext)) throw invalid('options.context must be a ToolContext: every call runs as someone.');
  if (options.approver !== undefined && !(options.approver instanceof ToolContext))
    throw invalid('options.approver must be a ToolContext.');
  if (options.approval !== undefined && options.approval !== 'gated' && options.approval !== 'mutating') {
    throw invalid(`options.approval must be 'gated' or 'mutating', got ${String(options.approval)}.`);
  }
  const ttl = options.approvalTtlSeconds;
  if (ttl !== undefined && (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0))
    throw invalid(`options.approvalTtlSeconds must be a positive number, got ${String(ttl)}.`);
  if (options.resolveTool !== undefined && (typeof options.resolveTool !== 'string' || options.resolveTool === ''))
    throw invalid('options.resolveTool must be a tool name.');
}

/** The definitions to offer: every tool the context may call, narrowed to the model's budget when a model is given. */
async function offeredTools(registry: GovernedToolRegistry, options: AiSdkToolsOptions): Promise<readonly AnyToolDefinition[]> {
  const callable = await registry.listToolsFor(options.context);
  const model = options.model;
  if (model === undefined || typeof registry.toolsFor !== 'function') return callable;
  const [provider, modelId] =
    typeof model === 'string' ? ['custom', model] : [model.provider.split('.')[0] ?? model.provider, model.modelId];
  const turn = await registry.toolsFor(options.context, {
    provider,
    model: modelId,
    ...(options.message === undefined ? {} : { message: options.message }),
    ...(options.alwaysInclude === undefined ? {} : { alwaysInclude: options.alwaysInclude }),
  });
  // The turn's list is a subset of the callable list by construction; intersecting keeps it so.
  const names = new Set(turn.names);
  return callable.filter((definition) => names.has(definition.name));
}

/** A plain JSON copy of a tool's input schema (no symbols or functions), as a provider receives it. */
function inputSchemaOf(definition: AnyToolDefinition): JSONSchema7 {
  return JSON.parse(JSON.stringify(definition.inputSchema)) as JSONSchema7;
}

/**
 * A Milpa registry's tools as an AI SDK `ToolSet`: exactly the tools `context` may call (the
 * registry's per-caller list, narrowed to the model's per-turn budget when `model` is given),
 * each an AI SDK `tool()` with a `jsonSchema()` input whose `execute` runs the call through the
 * whole Milpa pipeline — with the run's abort signal and the tool call id as request id.
 *
 * - A refusal (scope, rule, rate limit, validation, a held call…) is the tool result the model
 *   reads (`{ ok: false, code, message, … }`), never a thrown error that ends the run.
 * - A call the registry would stop for a person goes through the AI SDK's own approval flow
 *   (`needsApproval`, `tool-approval-request`, `tool-approval-response`): the person's approval
 *   becomes the Milpa confirmation (or, with `approver`, the grant of a held call), bound to that
 *   tool call id and a digest of its arguments, used once. Milpa's own checks still run.
 *
 * @throws MilpaError `INVALID_ARGUMENT` (as a rejection) for a registry that is not governed or malformed options.
 * @example
 * import { generateText, stepCountIs } from 'ai';
 * import { aiSdkTools } from '@milpa/ai-sdk';
 *
 * const tools = await aiSdkTools(registry, { context: ToolContext.web('user:42', ['notes:read', 'notes:write']) });
 * const result = await generateText({ model, tools, prompt: 'Tidy up my notes', stopWhen: stepCountIs(5) });
 */
export async function aiSdkTools(registry: GovernedToolRegistry, options: AiSdkToolsOptions): Promise<AiSdkToolSet> {
  checkOptions(registry, options);
  const approvalTtlMs = (options.approvalTtlSeconds ?? DEFAULT_APPROVAL_TTL_SECONDS) * 1000;
  // Approval requests are bound by the tool call id alone: another caller's claim reads as the field that differs.
  const approvals = new ApprovalBinding({ store: approvalStoreFor(registry, options), namespace: 'ai-sdk', ttlMs: approvalTtlMs });
  const tools: AiSdkToolSet = {};
  for (const definition of await offeredTools(registry, options)) {
    const governed = new GovernedToolCall({
      registry,
      definition,
      context: options.context,
      approval: options.approval ?? 'gated',
      approver: options.approver ?? null,
      resolveTool: options.resolveTool ?? DEFAULT_RESOLVE_TOOL,
      approvals,
    });
    // Typed by the annotation, not by explicit type arguments: AI SDK 7's `tool()` takes a third
    // (the tool's context type), so two explicit arguments would pick another overload there.
    const created: AiSdkTool = tool({
      description: definition.description,
      ...(definition.title === null ? {} : { title: definition.title }),
      // Milpa validates (clamps, formats, full JSON Schema) inside the pipeline; the AI SDK passes input through.
      inputSchema: jsonSchema<ToolArgs>(inputSchemaOf(definition)),
      needsApproval: (input, call) => governed.needsApproval(input, call),
      execute: (input, call) => governed.execute(input, call),
    });
    tools[definition.name] = created;
  }
  return tools;
}
