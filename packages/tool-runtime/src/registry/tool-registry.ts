import {
  type ToolContext,
  silentLogger,
  type AnyToolDefinition,
  type ApprovalStore,
  type ConfirmationStore,
  type IdempotencyStore,
  type InvocationHistoryStore,
  type InvocationRule,
  type RateLimiter,
  type GovernedToolRegistry,
  type ToolResult,
  type ToolSummary,
} from '@milpa/core';
import type { ToolAuditLogger } from '../audit/tool-audit-logger.js';
import { TokenEstimator } from '../budget/token-estimator.js';
import type { InvocationPlan } from '../inspection/invocation-plan.js';
import type { RegistryWiring } from '../inspection/registry-wiring.js';
import type { InvocationRuleSummary } from '../invocation/invocation-rule-set.js';
import type { ToolCallOptions } from '../pipeline/pipeline-call.js';
import type { PipelineServices } from '../pipeline/pipeline-services.js';
import type { RegisteredTool } from '../pipeline/registered-tool.js';
import { composeStages } from '../pipeline/stage-list.js';
import type { PolicyGate } from '../policy/policy-gate.js';
import type { ProviderName } from '../routing/provider-shapes.js';
import { ToolCallTelemetry } from '../telemetry/tool-call-telemetry.js';
import type { SchemaValidator } from '../validation/schema-validator.js';
import { checkDefaultContext } from './call-context.js';
import { CallRuntime } from './call-runtime.js';
import { createPipelineServices } from './create-pipeline-services.js';
import { DenyList, type DenyReport } from './deny-list.js';
import { ToolCatalog } from './tool-catalog.js';
import type { StartRunOptions, ToolListing, ToolRegistryOptions, ToolsWithinBudget } from './tool-registry-options.js';
import { TurnTools, type ToolsForOptions, type ToolsForResult } from './turn-tools.js';

/**
 * The governed tool registry, a facade over three units: the catalog (registration, the deny list,
 * listings), the call runtime (call, resume, inspect, runs) and the turn tools (what a model is
 * offered, token budgets). Every `call()` runs the pipeline
 * of stages — resolve → tidy (opt-in) → clamp → validate → authorize → invocation rules → rate-limit → plan-mode → confirm →
 * `tool.executing` (interception) → execute (contained, with deadline
 * and abort) → result cap → run history → `tool.executed` / `tool.failed` → audit, with the host's own stages at their positions — and
 * resolves to a `ToolResult`. It never rejects: every stage is contained, and failing
 * collaborators fail closed.
 *
 * @example
 * const registry = new ToolRegistry({ logger: pino() });
 * registry.register(defineTool({
 *   name: 'add', description: 'Add two numbers',
 *   input: Type.Object({ a: Type.Number(), b: Type.Number() }),
 *   handler: ({ a, b }) => a + b,
 * }));
 * const result = await registry.call('add', { a: 5, b: 3 }, ToolContext.cli());
 * result.data; // 8
 */
export class ToolRegistry implements GovernedToolRegistry {
  /** The services the calls share; read only by the deprecated accessors below. */
  readonly #services: PipelineServices;
  readonly #catalog: ToolCatalog;
  readonly #runtime: CallRuntime;
  readonly #turnTools: TurnTools;

  /**
   * @throws MilpaError `INVALID_ARGUMENT` for non-positive rate-limit settings, a `defaultContext`
   *   that is not a `ToolContext`, or a host stage that is malformed or placed after `tool.executing`;
   *   `INVALID_INVOCATION_RULE` for an invocation rule whose identifier is invalid or taken, a
   *   malformed target resolver or history store.
   */
  constructor(options: ToolRegistryOptions = {}) {
    const tools = new Map<string, RegisteredTool>();
    const defaultContext = checkDefaultContext(options.defaultContext);
    const stages = composeStages(options.stages);
    const telemetry = ToolCallTelemetry.from(options.telemetry);
    const deny = new DenyList(options.deny, options.groups);
    // Unknown models are warned about through the registry's logger, once per model id.
    const estimator = new TokenEstimator({
      logger: options.logger ?? silentLogger,
      ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    });
    const services = createPipelineServices(options, tools);
    this.#services = services;
    this.#catalog = new ToolCatalog({ tools, deny, validator: services.validator, gate: services.gate, log: services });
    this.#runtime = new CallRuntime({ services, stages, defaultContext, telemetry });
    this.#turnTools = new TurnTools({ catalog: this.#catalog, estimator, log: services });
    if (options.tools !== undefined) {
      for (const definition of options.tools) this.register(definition);
      this.#catalog.warnUnmatchedDenials();
    }
  }

  /**
   * What the deny list covers: every denied name (groups expanded), the ones a tool tried to
   * register under, and the names that match no tool registered so far (likely typos).
   */
  denyReport(): DenyReport {
    return this.#catalog.denyReport();
  }

  // ---------------------------------------------------------------- registration

  /**
   * Registers a tool (from `defineTool`, the `tool` decorator, or a hand-built object). The input
   * and output schemas are checked now (`SchemaValidator.assertSchema`), so an invalid schema fails
   * here and never at call time; the input validator itself is compiled on the tool's first call.
   *
   * A tool whose name is on the deny list is checked, then left out: it is neither listed nor
   * callable.
   *
   * @throws ToolAlreadyRegisteredError for a duplicate name (the first registration stays).
   * @throws MilpaError `INVALID_TOOL_DEFINITION` / `INVALID_SCHEMA` for an invalid definition or schema.
   */
  register(definition: AnyToolDefinition): void {
    this.#catalog.register(definition);
  }

  /** True when a tool of that name is registered. */
  has(name: string): boolean {
    return this.#catalog.has(name);
  }

  /** The registered definition, or null. */
  getDefinition(name: string): AnyToolDefinition | null {
    return this.#catalog.getDefinition(name);
  }

  /** Every definition, in registration order. */
  getToolDefinitions(): AnyToolDefinition[] {
    return this.#catalog.getToolDefinitions();
  }

  /**
   * The LLM/MCP wire listing: `{name, description, inputSchema, version?, outputSchema?}` in
   * registration order. An empty input schema is listed as `{type:'object'}`.
   */
  getToolSummaries(): ToolSummary[] {
    return this.#catalog.getToolSummaries();
  }

  /**
   * Tools a holder of `scopes` may see: tools declaring no scopes, or sharing at least one scope;
   * `'*'` in `scopes` sees every tool.
   */
  getToolsByScopes(scopes: readonly string[]): ToolListing[] {
    return this.#catalog.getToolsByScopes(scopes);
  }

  /**
   * The tools `context` may call, in registration order: exactly those whose authorization passes
   * for this caller before any argument is known — the channel policy (`require_auth`,
   * `block_mutating`), the tool's scopes and the host's rule provider, the same checks `call()`
   * runs. Denied tools are never registered, so never listed. Build every list a model or client
   * sees from this, so that what is offered is what may be called.
   *
   * @example
   * const tools = await registry.listToolsFor(ToolContext.mcp(requestId, 'user:7', ['notes:read']));
   */
  listToolsFor(context: ToolContext): Promise<readonly AnyToolDefinition[]> {
    return this.#catalog.listToolsFor(context);
  }

  /**
   * The tools to send a model this turn, for this caller, in the provider's shape: only tools the
   * caller may call ({@link ToolRegistry.listToolsFor}), narrowed to the model's per-turn budget by
   * the router (tools the message names first, then the best matches of the message; the per-turn
   * budget comes from the model, the profile from provider and model), then fitted to the
   * profile's token budget, sorted by name so an identical selection is byte-identical.
   *
   * @example
   * const turn = await registry.toolsFor(context, { provider: 'openai', model: 'gpt-4o-mini', message: userText });
   * await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: [...turn.tools] });
   * @throws MilpaError `INVALID_ARGUMENT` (as a rejection) for a malformed context or options.
   */
  toolsFor<P extends ProviderName>(context: ToolContext, options: ToolsForOptions<P>): Promise<ToolsForResult<P>> {
    return this.#turnTools.toolsFor(context, options);
  }

  /** Tools whose name starts with `prefix`. */
  getToolsByPrefix(prefix: string): ToolListing[] {
    return this.#catalog.getToolsByPrefix(prefix);
  }

  // ---------------------------------------------------------------- invocation rules and runs

  /**
   * Adds invocation rules after the existing ones (all or none).
   * @throws MilpaError `INVALID_INVOCATION_RULE` for an identifier that is invalid or already taken,
   *   or a rule without `evaluate`; nothing is added then.
   */
  addInvocationRules(...rules: InvocationRule[]): void {
    this.#services.invocation.addAll(rules);
  }

  /** The invocation rules, in the order they run: identifier, history requirement, tools. */
  getInvocationRules(): readonly InvocationRuleSummary[] {
    return this.#services.invocation.summaries();
  }

  /**
   * Opens an agent run whose (empty) invocation history is complete, and resolves to its id: pass
   * it as the `runId` of every call's context in that run. A context whose run the store does not
   * know has an incomplete history, and rules that require a complete one refuse its calls.
   *
   * @example
   * const runId = await registry.startRun();
   * const context = ToolContext.mcp(requestId, 'agent:7', ['notes:write']).with({ runId });
   * @throws MilpaError `INVALID_ARGUMENT` for a malformed `runId`; `RUN_EXISTS` when the store
   *   already knows it (an existing history is never reset).
   */
  startRun(options: StartRunOptions = {}): Promise<string> {
    return this.#runtime.startRun(options);
  }

  // ---------------------------------------------------------------- token budgets

  /**
   * The summaries that fit 30 % of `model`'s context, `priorityTools` first, the rest in
   * registration order (greedy; a tool that does not fit is skipped and the pass continues).
   * Logs a warning naming up to five excluded tools.
   */
  getToolsWithinBudget(model: string, priorityTools?: readonly string[]): ToolsWithinBudget;
  /**
   * The same, over only the tools `context` may call ({@link ToolRegistry.listToolsFor}): what a
   * model is offered is what it may call.
   */
  getToolsWithinBudget(model: string, priorityTools: readonly string[], context: ToolContext): Promise<ToolsWithinBudget>;
  getToolsWithinBudget(
    model: string,
    priorityTools: readonly string[] = [],
    context?: ToolContext,
  ): ToolsWithinBudget | Promise<ToolsWithinBudget> {
    return this.#turnTools.withinBudget(model, priorityTools, context);
  }

  /** A text report of the tools' token usage against `model`'s budget. */
  getTokenUsageReport(model = 'gpt-4'): string {
    return this.#turnTools.usageReport(model);
  }

  /** The estimated tokens of every tool summary: `{ total, per_tool }`. */
  estimateTokens(): ReturnType<TokenEstimator['estimateToolsTokens']> {
    return this.#turnTools.estimateTokens();
  }

  /** Whether the tool list fits `model`'s tool budget. */
  checkTokenBudget(model: string): ReturnType<TokenEstimator['checkToolBudget']> {
    return this.#turnTools.checkTokenBudget(model);
  }

  /** The estimator used for budgets. */
  getTokenEstimator(): TokenEstimator {
    return this.#turnTools.estimator;
  }

  // ---------------------------------------------------------------- accessors

  /** The policy gate (channel policies, rule provider). */
  getPolicyGate(): PolicyGate {
    return this.#services.gate;
  }

  /**
   * The confirmation store.
   * @deprecated Build the store yourself, pass it as the `confirmationStore` option and keep your reference.
   */
  getConfirmationStore(): ConfirmationStore {
    return this.#services.confirmationStore;
  }

  /**
   * The store of calls held for approval.
   * @deprecated Build the store yourself, pass it as the `approvalStore` option and keep your reference.
   */
  getApprovalStore(): ApprovalStore {
    return this.#services.approvals.store;
  }

  /**
   * The store of idempotency keys.
   * @deprecated Build the store yourself, pass it as the `idempotencyStore` option and keep your reference.
   */
  getIdempotencyStore(): IdempotencyStore {
    return this.#services.idempotency.store;
  }

  /**
   * The store of the runs' invocation histories.
   * @deprecated Build the store yourself, pass it as the `historyStore` option and keep your reference.
   */
  getHistoryStore(): InvocationHistoryStore {
    return this.#services.invocation.store;
  }

  /** The audit logger (e.g. to add sensitive fields). */
  getAuditLogger(): ToolAuditLogger {
    return this.#services.audit;
  }

  /**
   * The schema validator.
   * @deprecated Build the validator yourself, pass it as the `validator` option and keep your reference.
   */
  getSchemaValidator(): SchemaValidator {
    return this.#services.validator;
  }

  /** Sets (or, with null, removes) the rate limiter. */
  setRateLimiter(limiter: RateLimiter | null): void {
    this.#services.rateLimiter = limiter;
  }

  /** The rate limiter, or null. */
  getRateLimiter(): RateLimiter | null {
    return this.#services.rateLimiter;
  }

  /** True when a rate limiter is set. */
  hasRateLimiter(): boolean {
    return this.#services.rateLimiter !== null;
  }

  /** True when a dispatcher was given to the constructor. */
  hasDispatcher(): boolean {
    return this.#services.dispatcher !== null;
  }

  /** What is wired into this registry, for inspection. */
  getWiring(): RegistryWiring {
    return this.#runtime.getWiring();
  }

  /**
   * The `InvocationPlan` of tool `name` for a caller in `context`: which steps would run and why.
   * Executes nothing. Null for an unknown tool.
   */
  inspect(name: string, context: ToolContext): InvocationPlan | null {
    return this.#runtime.inspect(name, context);
  }

  // ---------------------------------------------------------------- the pipeline

  /**
   * Runs one call through the pipeline. Never rejects: every outcome is a `ToolResult`
   * (`meta.code` tells refusals apart). A call without a context is refused with
   * `VALIDATION_ERROR` unless the registry was built with a `defaultContext`.
   */
  call(name: string, args?: unknown, context?: ToolContext, options?: ToolCallOptions): Promise<ToolResult> {
    return this.#runtime.call(name, args, context, options);
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
  resume(approvalId: string, context?: ToolContext, options?: ToolCallOptions): Promise<ToolResult> {
    return this.#runtime.resume(approvalId, context, options);
  }
}
