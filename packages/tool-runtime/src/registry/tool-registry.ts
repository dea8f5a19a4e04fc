import {
  MilpaError,
  ToolContext,
  ToolErrorCode,
  ToolResult,
  generateRandomId,
  normalizeToolDefinition,
  silentLogger,
  type AnyToolDefinition,
  type ApprovalStore,
  type IdempotencyStore,
  type InvocationHistoryStore,
  type InvocationRule,
  type ConfirmationStore,
  type JsonSchema,
  type RateLimiter,
  type GovernedToolRegistry,
  type ToolSummary,
} from '@milpa/core';
import type { Span } from '@opentelemetry/api';
import { ApprovalSettings } from '../approval/approval-settings.js';
import { InMemoryApprovalStore } from '../approval/in-memory-approval-store.js';
import { IdempotencySettings } from '../idempotency/idempotency-settings.js';
import { InMemoryIdempotencyStore } from '../idempotency/in-memory-idempotency-store.js';
import { ToolAuditLogger } from '../audit/tool-audit-logger.js';
import { TokenEstimator } from '../budget/token-estimator.js';
import { ConfirmationTokenStore } from '../confirmation/confirmation-token-store.js';
import { buildInvocationPlan } from '../inspection/invocation-plan-builder.js';
import type { InvocationPlan } from '../inspection/invocation-plan.js';
import { RegistryWiring } from '../inspection/registry-wiring.js';
import { InMemoryInvocationHistoryStore } from '../invocation/in-memory-invocation-history-store.js';
import { InvocationRuleSet, type InvocationRuleSummary } from '../invocation/invocation-rule-set.js';
import { refusedOutcome } from '../pipeline/call-outcomes.js';
import { PipelineCall, type ToolCallOptions } from '../pipeline/pipeline-call.js';
import { PipelineRunner } from '../pipeline/pipeline-runner.js';
import { PipelineServices } from '../pipeline/pipeline-services.js';
import type { RegisteredTool } from '../pipeline/registered-tool.js';
import { isPromiseLike, messageOf, nameOf } from '../pipeline/settle.js';
import type { Stage } from '../pipeline/stage.js';
import { composeStages } from '../pipeline/stage-list.js';
import type { AuthorizationResult } from '../policy/authorization-result.js';
import { PolicyGate } from '../policy/policy-gate.js';
import { ToolCallTelemetry } from '../telemetry/tool-call-telemetry.js';
import { SchemaValidator } from '../validation/schema-validator.js';
import { checkDefaultContext, resolveCallContext, type DefaultContext } from './call-context.js';
import type { ProviderName } from '../routing/provider-shapes.js';
import { DenyList, type DenyReport } from './deny-list.js';
import { TurnTools, type ToolsForOptions, type ToolsForResult } from './turn-tools.js';
import { ToolAlreadyRegisteredError } from './tool-already-registered-error.js';
import { listTool, summarizeTool } from './tool-listing.js';
import type { StartRunOptions, ToolListing, ToolRegistryOptions, ToolsWithinBudget } from './tool-registry-options.js';

const EMPTY_ARGS = Object.freeze({});
/** The shape of the approval ids the approve stage issues. */
const APPROVAL_ID = /^[0-9a-f]{32}$/;
/** Callers whose listing is kept at once; past it the cache starts over. */
const MAX_CACHED_LISTINGS = 1_000;

function isEmptySchema(schema: JsonSchema): boolean {
  return Object.keys(schema).length === 0;
}

function booleanOption(name: string, value: boolean): boolean {
  if (typeof value !== 'boolean')
    throw new MilpaError(`ToolRegistry option ${name} must be a boolean, got ${String(value)}.`, { code: 'INVALID_ARGUMENT' });
  return value;
}

function wholeOption(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new MilpaError(`ToolRegistry option ${name} must be a whole number >= 0, got ${String(value)}.`, { code: 'INVALID_ARGUMENT' });
  }
  return value;
}

function positive(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new MilpaError(`ToolRegistry option ${name} must be a positive number, got ${String(value)}.`, { code: 'INVALID_ARGUMENT' });
  }
  return value;
}

/**
 * The governed tool registry: registration, listings and wiring. Every `call()` runs the pipeline
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
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #services: PipelineServices;
  readonly #stages: readonly Stage[];
  readonly #runner: PipelineRunner;
  readonly #defaultContext: DefaultContext;
  readonly #estimator: TokenEstimator;
  readonly #telemetry: ToolCallTelemetry | null;
  readonly #deny: DenyList;
  readonly #turnTools = new TurnTools();
  /** Bumped by every registration, so cached listings know when they are stale. */
  #toolsRevision = 0;
  /** Listings per caller (channel, principal, scopes), valid while tools and policy are unchanged. */
  readonly #listings = new Map<string, { readonly revision: string; readonly tools: readonly AnyToolDefinition[] }>();

  /**
   * @throws MilpaError `INVALID_ARGUMENT` for non-positive rate-limit settings, a `defaultContext`
   *   that is not a `ToolContext`, or a host stage that is malformed or placed after `tool.executing`;
   *   `INVALID_INVOCATION_RULE` for an invocation rule whose identifier is invalid or taken, a
   *   malformed target resolver or history store.
   */
  constructor(options: ToolRegistryOptions = {}) {
    const logger = options.logger ?? silentLogger;
    const rateLimit = options.rateLimit ?? {};
    this.#defaultContext = checkDefaultContext(options.defaultContext);
    this.#stages = composeStages(options.stages);
    this.#runner = new PipelineRunner(this.#stages);
    this.#telemetry = ToolCallTelemetry.from(options.telemetry);
    this.#deny = new DenyList(options.deny, options.groups);
    // Unknown models are warned about through the registry's logger, once per model id.
    this.#estimator = new TokenEstimator({
      logger,
      ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    });
    const invocation = new InvocationRuleSet(
      options.rules,
      options.targetResolvers,
      options.historyStore ?? new InMemoryInvocationHistoryStore(),
    );
    const audit = new ToolAuditLogger(logger, { schemaOf: (name) => this.#tools.get(name)?.definition.inputSchema ?? null });
    for (const field of options.sensitiveFields ?? []) audit.addSensitiveField(field);
    this.#services = new PipelineServices({
      tools: this.#tools,
      logger,
      dispatcher: options.dispatcher ?? null,
      // Unknown-channel warnings go to the registry's own logger.
      gate: new PolicyGate({ logger, ruleProvider: options.ruleProvider ?? null, channelPolicies: options.channelPolicies ?? {} }),
      validator: options.validator ?? new SchemaValidator(),
      confirmationStore: options.confirmationStore ?? new ConfirmationTokenStore(),
      audit,
      rateLimiter: options.rateLimiter ?? null,
      rateLimit: {
        windowSeconds: positive('rateLimit.windowSeconds', rateLimit.windowSeconds ?? 60),
        maxTokens: positive('rateLimit.maxTokens', rateLimit.maxTokens ?? 100),
        cost: positive('rateLimit.cost', rateLimit.cost ?? 1),
        mutatingCost: positive('rateLimit.mutatingCost', rateLimit.mutatingCost ?? 5),
      },
      exposeErrorMessages: options.exposeErrorMessages ?? true,
      invocation,
      tidyArguments: booleanOption('tidyArguments', options.tidyArguments ?? false),
      maxResultChars: wholeOption('maxResultTokens', options.maxResultTokens ?? 2_500) * 4,
      approvals: new ApprovalSettings({
        gate: options.approvalGate ?? null,
        gates: options.approvalGates ?? {},
        store: options.approvalStore ?? new InMemoryApprovalStore(),
        ttlSeconds: options.approvalTtlSeconds ?? 3_600,
      }),
      idempotency: new IdempotencySettings({
        store: options.idempotencyStore ?? new InMemoryIdempotencyStore(),
        retentionSeconds: options.idempotencyRetentionSeconds ?? 86_400,
        leaseSeconds: options.idempotencyLeaseSeconds ?? 300,
      }),
    });
    if (options.tools !== undefined) {
      for (const definition of options.tools) this.register(definition);
      this.#warnUnmatchedDenials();
    }
  }

  /** Logs the deny-list names that match no tool: a count and at most five names. */
  #warnUnmatchedDenials(): void {
    const { unmatched } = this.denyReport();
    if (unmatched.length === 0) return;
    const shown = unmatched.slice(0, 5).map((entry) => (entry.via === 'deny' ? entry.name : `${entry.name} (${entry.via})`));
    const more = unmatched.length > 5 ? ', …' : '';
    this.#services.safeLog(
      'warn',
      { unmatched_count: unmatched.length },
      `[ToolRegistry] The deny list names ${unmatched.length} tool(s) that match no registered tool, so they deny nothing: ${shown.join(', ')}${more}. Check the names.`,
    );
  }

  /**
   * What the deny list covers: every denied name (groups expanded), the ones a tool tried to
   * register under, and the names that match no tool registered so far (likely typos).
   */
  denyReport(): DenyReport {
    return this.#deny.report((name) => this.#tools.has(name));
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
    const normalized = normalizeToolDefinition(definition);
    // A denied tool is never registered: not listed, and a call to it is TOOL_NOT_FOUND.
    if (this.#deny.denies(normalized.name)) {
      this.#services.debug({ tool: normalized.name }, `[ToolRegistry] ${normalized.name} is on the deny list; not registered`);
      return;
    }
    if (this.#tools.has(normalized.name)) throw new ToolAlreadyRegisteredError(normalized.name);
    const empty = isEmptySchema(normalized.inputSchema);
    if (!empty) this.#services.validator.assertSchema(normalized.inputSchema);
    if (normalized.outputSchema !== null) this.#services.validator.assertSchema(normalized.outputSchema);
    this.#toolsRevision++;
    this.#tools.set(normalized.name, {
      definition: normalized,
      // Compiled by the validate stage on the first call; null: nothing to validate.
      validate: empty ? null : undefined,
      freezeArgs: undefined,
      hasClamps: Object.keys(normalized.clamps).length > 0,
      rateLimitKey: null,
    });
  }

  /** True when a tool of that name is registered. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** The registered definition, or null. */
  getDefinition(name: string): AnyToolDefinition | null {
    return this.#tools.get(name)?.definition ?? null;
  }

  /** Every definition, in registration order. */
  getToolDefinitions(): AnyToolDefinition[] {
    return Array.from(this.#tools.values(), (entry) => entry.definition);
  }

  /**
   * The LLM/MCP wire listing: `{name, description, inputSchema, version?, outputSchema?}` in
   * registration order. An empty input schema is listed as `{type:'object'}`.
   */
  getToolSummaries(): ToolSummary[] {
    return this.getToolDefinitions().map(summarizeTool);
  }

  /**
   * Tools a holder of `scopes` may see: tools declaring no scopes, or sharing at least one scope;
   * `'*'` in `scopes` sees every tool.
   */
  getToolsByScopes(scopes: readonly string[]): ToolListing[] {
    const all = scopes.includes('*');
    return this.getToolDefinitions()
      .filter((definition) => all || definition.scopes.length === 0 || definition.scopes.some((scope) => scopes.includes(scope)))
      .map(listTool);
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
  async listToolsFor(context: ToolContext): Promise<readonly AnyToolDefinition[]> {
    if (!(context instanceof ToolContext)) throw new MilpaError('listToolsFor needs a ToolContext.', { code: 'INVALID_ARGUMENT' });
    const gate = this.#services.gate;
    // Without a rule provider a verdict depends only on the policy, the tool and who is calling,
    // so the listing is kept per caller until a tool is registered or a policy changes. A rule
    // provider is the host's own (it may change its mind), so it is asked every time.
    if (gate.hasRuleProvider()) return this.#authorizedTools(context);
    const key = `${context.channel}\u0000${context.principal ?? '\u0001'}\u0000${[...context.scopes].sort().join('\u0000')}`;
    const revision = `${this.#toolsRevision}:${gate.revision}`;
    const cached = this.#listings.get(key);
    if (cached !== undefined && cached.revision === revision) return cached.tools;
    const tools = Object.freeze(await this.#authorizedTools(context));
    if (this.#listings.size >= MAX_CACHED_LISTINGS) this.#listings.clear();
    this.#listings.set(key, { revision, tools });
    return tools;
  }

  async #authorizedTools(context: ToolContext): Promise<AnyToolDefinition[]> {
    const gate = this.#services.gate;
    const entries = [...this.#tools.values()];
    // An unknown channel is warned about once per listing (by the first check), not once per tool.
    const verdicts = entries.map((entry, index) => gate.authorize(context, entry.definition, { quiet: index > 0 }));
    // Only a rule provider answers with a promise; await them all at once.
    const settled = verdicts.some(isPromiseLike) ? await Promise.all(verdicts) : (verdicts as AuthorizationResult[]);
    return entries.filter((_entry, index) => settled[index]?.allowed === true).map((entry) => entry.definition);
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
  async toolsFor<P extends ProviderName>(context: ToolContext, options: ToolsForOptions<P>): Promise<ToolsForResult<P>> {
    const allowed = await this.listToolsFor(context);
    return this.#turnTools.build(allowed, options);
  }

  /** Tools whose name starts with `prefix`. */
  getToolsByPrefix(prefix: string): ToolListing[] {
    return this.getToolDefinitions()
      .filter((definition) => definition.name.startsWith(prefix))
      .map(listTool);
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

  /** The store of the runs' invocation histories. */
  getHistoryStore(): InvocationHistoryStore {
    return this.#services.invocation.store;
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
    if (context !== undefined)
      return this.listToolsFor(context).then((definitions) => this.#withinBudget(definitions.map(summarizeTool), model, priorityTools));
    return this.#withinBudget(this.getToolSummaries(), model, priorityTools);
  }

  #withinBudget(summaries: readonly ToolSummary[], model: string, priorityTools: readonly string[]): ToolsWithinBudget {
    const priority = priorityTools
      .map((name) => summaries.find((summary) => summary.name === name))
      .filter((summary): summary is ToolSummary => summary !== undefined);
    const ordered = [...priority, ...summaries.filter((summary) => !priority.includes(summary))];
    const selection = this.#estimator.selectToolsWithinBudget(ordered, model);
    if (selection.excluded.length > 0) {
      const shown = selection.excluded.slice(0, 5).join(', ');
      const more = selection.excluded.length > 5 ? '...' : '';
      this.#services.safeLog(
        'warn',
        { excluded_count: selection.excluded.length, model },
        `[ToolRegistry] Token budget exceeded. Excluded ${selection.excluded.length} tools: ${shown}${more}`,
      );
    }
    return {
      tools: selection.selected,
      excluded: selection.excluded,
      tokens_used: selection.tokens_used,
      budget: selection.budget,
    };
  }

  /** A text report of the tools' token usage against `model`'s budget. */
  getTokenUsageReport(model = 'gpt-4'): string {
    return this.#estimator.getUsageReport(this.getToolSummaries(), model);
  }

  /** The estimated tokens of every tool summary: `{ total, per_tool }`. */
  estimateTokens(): ReturnType<TokenEstimator['estimateToolsTokens']> {
    return this.#estimator.estimateToolsTokens(this.getToolSummaries());
  }

  /** Whether the tool list fits `model`'s tool budget. */
  checkTokenBudget(model: string): ReturnType<TokenEstimator['checkToolBudget']> {
    return this.#estimator.checkToolBudget(this.getToolSummaries(), model);
  }

  /** The estimator used for budgets. */
  getTokenEstimator(): TokenEstimator {
    return this.#estimator;
  }

  // ---------------------------------------------------------------- accessors

  /** The policy gate (channel policies, rule provider). */
  getPolicyGate(): PolicyGate {
    return this.#services.gate;
  }

  /** The confirmation store. */
  getConfirmationStore(): ConfirmationStore {
    return this.#services.confirmationStore;
  }

  /** The store of calls held for approval. */
  getApprovalStore(): ApprovalStore {
    return this.#services.approvals.store;
  }

  /** The store of idempotency keys. */
  getIdempotencyStore(): IdempotencyStore {
    return this.#services.idempotency.store;
  }

  /** The audit logger (e.g. to add sensitive fields). */
  getAuditLogger(): ToolAuditLogger {
    return this.#services.audit;
  }

  /** The schema validator. */
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
    return new RegistryWiring(
      this.hasRateLimiter(),
      this.hasDispatcher(),
      this.#services.gate.hasRuleProvider(),
      { call: this.#services.rateLimit.cost, mutating: this.#services.rateLimit.mutatingCost },
      {
        rules: this.#services.invocation.summaries(),
        targetResolvers: this.#services.invocation.resolvers.length,
        tidyArguments: this.#services.tidyArguments,
        maxResultChars: this.#services.maxResultChars,
        approvalGateFor: (toolName) => this.#services.approvals.gateFor(toolName) !== null,
      },
    );
  }

  /**
   * The `InvocationPlan` of tool `name` for a caller in `context`: which steps would run and why.
   * Executes nothing. Null for an unknown tool.
   */
  inspect(name: string, context: ToolContext): InvocationPlan | null {
    const entry = this.#tools.get(name);
    if (entry === undefined) return null;
    return buildInvocationPlan(this.#services.gate, this.#stages, entry.definition, context, this.getWiring());
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
    // After the exits (audit included): the span ends once, with the call's final result.
    if (telemetry !== null) telemetry.finish(span, call, result);
    return result;
  }

  /**
   * Resumes a call an approval gate held, by its `approval_id`: the same as calling its tool again
   * with the held arguments and the `approvalId` call option. It runs only when someone other than the requester
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
    if (failure !== null)
      this.#services.safeLog('error', { error: failure }, `[ToolRegistry] the approval store failed on resume: ${failure}`);
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
    const message = `Tool call refused: a context is required to call '${tool}' (pass a ToolContext, or build the registry with defaultContext)`;
    this.#services.safeLog('warn', { tool }, `[ToolRegistry] ${message}`);
    return ToolResult.failure(ToolErrorCode.VALIDATION_ERROR, message, null, { tool, took_ms: 0 }).withOutcome(
      refusedOutcome('validation_failed', ToolErrorCode.VALIDATION_ERROR, message),
    );
  }
}
