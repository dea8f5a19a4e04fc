import {
  InterceptionSlot,
  MilpaError,
  ToolContext,
  ToolErrorCode,
  ToolEvents,
  ToolExecutedEvent,
  ToolExecutingEvent,
  ToolFailedEvent,
  ToolResult,
  normalizeToolDefinition,
  silentLogger,
  unsupportedCaller,
  type AnyToolDefinition,
  type ConfirmationBinding,
  type ConfirmationStore,
  type EventDispatcher,
  type EventListener,
  type EventPayload,
  type JsonSchema,
  type Logger,
  type PolicyRuleProvider,
  type RateLimiter,
  type RateLimitResult,
  type ToolArgs,
  type ToolCaller,
  type ToolRegistry as ToolRegistryContract,
  type ToolResultMeta,
  type ToolSummary,
} from '@milpa/core';
import { swallowRejection } from '../audit/swallow-rejection.js';
import { ToolAuditLogger } from '../audit/tool-audit-logger.js';
import { TokenEstimator } from '../budget/token-estimator.js';
import { ConfirmationTokenStore } from '../confirmation/confirmation-token-store.js';
import { formatExpiresAt } from '../confirmation/format-expires-at.js';
import { InvocationPlanBuilder } from '../inspection/invocation-plan-builder.js';
import type { InvocationPlan } from '../inspection/invocation-plan.js';
import { RegistryWiring } from '../inspection/registry-wiring.js';
import type { AuthorizationResult } from '../policy/authorization-result.js';
import type { ChannelPolicy } from '../policy/channel-policy.js';
import { PolicyGate } from '../policy/policy-gate.js';
import { rateLimitKey } from '../rate-limiting/rate-limit-key.js';
import { SchemaValidator, type CompiledValidator } from '../validation/schema-validator.js';
import type { ValidationResult } from '../validation/validation-result.js';
import { describeActionSummary } from './action-summary.js';
import { planArgs } from './plan-args.js';
import { ToolAlreadyRegisteredError } from './tool-already-registered-error.js';
import { ToolInvocationState } from './tool-invocation-state.js';

/** Rate-limit settings the registry passes to its limiter on every call. */
export interface RateLimitSettings {
  /** Window length in seconds (default 60). */
  readonly windowSeconds?: number;
  /** Budget per window (default 100). */
  readonly maxTokens?: number;
  /** Cost of a non-mutating call (default 1). */
  readonly cost?: number;
  /** Cost of a mutating call (default 5). */
  readonly mutatingCost?: number;
}

/** Options of `new ToolRegistry({...})`; every one is optional. */
export interface ToolRegistryOptions {
  /** Where audit lines, warnings and debug lines go (pino or `console` both work). Default: silent. */
  readonly logger?: Logger;
  /** Wire a dispatcher to enable `tool.executing` interception and the `tool.executed`/`tool.failed` events. */
  readonly dispatcher?: EventDispatcher | null;
  /** Throttles calls by `channel:principal:tool`. */
  readonly rateLimiter?: RateLimiter | null;
  /** Window, budget and costs for the limiter. */
  readonly rateLimit?: RateLimitSettings;
  /** Host rules consulted after require_auth and scopes. */
  readonly ruleProvider?: PolicyRuleProvider | null;
  /** Where pending confirmations live (default an in-memory `ConfirmationTokenStore`, 60 s TTL). */
  readonly confirmationStore?: ConfirmationStore;
  /** Channel policies replacing the seed defaults for those channels. */
  readonly channelPolicies?: Readonly<Record<string, ChannelPolicy>>;
  /**
   * Return a handler's own exception message to the caller (default true, as the seed does).
   * When false the caller gets a generic message with the request id and the detail is only logged.
   */
  readonly exposeErrorMessages?: boolean;
  /** Extra argument names to redact in logs and runtime-written messages. */
  readonly sensitiveFields?: readonly string[];
  /** A validator to share between registries (identical schemas compile once). */
  readonly validator?: SchemaValidator;
}

/** Options of a single `call()`. */
export interface ToolCallOptions {
  /**
   * Aborting it aborts the handler's `signal`. Before the handler starts, an abort refuses the call
   * with `TIMEOUT` — also while the call waits on a rule provider, limiter, confirmation store or
   * `tool.executing` listener that never answers.
   */
  readonly signal?: AbortSignal;
  /** What the caller's channel can do (progress, logging, elicitation, sampling). */
  readonly caller?: ToolCaller;
}

/** The result of `getToolsWithinBudget()`. */
export interface ToolsWithinBudget {
  /** The selected tool summaries, priority tools first. */
  readonly tools: readonly ToolSummary[];
  /** Names of tools that did not fit. */
  readonly excluded: readonly string[];
  /** Estimated tokens of the selected tools. */
  readonly tokens_used: number;
  /** The model's tool budget in tokens. */
  readonly budget: number;
}

/** A tool as returned by `getToolsByScopes()` and `getToolsByPrefix()`. */
export interface ToolListing {
  /** The tool's name. */
  readonly name: string;
  /** What it does. */
  readonly description: string;
  /** Its input schema. */
  readonly inputSchema: JsonSchema;
}

/** The rate-limit key of one caller of one tool. */
interface RateLimitKeyMemo {
  readonly channel: string;
  readonly principal: string | null;
  readonly key: string;
}

/** One call on its way through the pipeline, handed from stage to stage. */
interface PipelineState {
  readonly entry: RegisteredTool;
  readonly context: ToolContext;
  /** The validated (and clamped) arguments; a redeemed confirmation replaces them with the first call's. */
  args: ToolArgs;
  readonly options: ToolCallOptions | undefined;
  readonly startedAt: number;
  readonly needsConfirmation: boolean;
  /** A non-null `confirm_token` came with the arguments. */
  readonly hasToken: boolean;
  /** The `confirm_token` argument as given (it is not in `args`). */
  readonly confirmToken: unknown;
}

interface RegisteredTool {
  readonly definition: AnyToolDefinition;
  /** Null when the input schema is empty: validation is skipped (seed behaviour, §3 E50). */
  readonly validate: CompiledValidator | null;
  readonly hasClamps: boolean;
  /**
   * The key of the tool's last caller, reused while calls keep coming from the same channel and
   * principal: a freshly built key string must be flattened and hashed by the limiter's map on every
   * call, which costs more than the rest of the limiter. Null until the first rate-limited call.
   */
  rateLimitKey: RateLimitKeyMemo | null;
}

const EMPTY_ARGS: ToolArgs = Object.freeze({});
const VETO_MESSAGE = 'Tool execution vetoed by an event listener';
const INVALID_TOKEN_MESSAGE = 'Invalid or expired confirmation token';

function isPromiseLike<T>(value: unknown): value is PromiseLike<T> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function isPlainArgs(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

function isEmptySchema(schema: JsonSchema): boolean {
  return Object.keys(schema).length === 0;
}

/** A tool name as text for messages and meta, without ever throwing (a hostile caller may pass anything). */
function nameOf(name: unknown): string {
  if (typeof name === 'string') return name;
  try {
    return String(name);
  } catch {
    return `[unprintable ${typeof name}]`;
  }
}

/** The message of anything thrown, without ever throwing itself. */
function messageOf(error: unknown): string {
  try {
    if (error instanceof Error) return error.message;
    if (typeof error === 'string') return error;
    return String(error);
  } catch {
    return 'Unknown error';
  }
}

/**
 * The governed tool registry: every `call()` runs one pipeline — resolve → clamp → validate →
 * authorize → rate-limit → plan-mode → confirm → `tool.executing` (interception) → execute
 * (contained, with deadline and abort) → `tool.executed` / `tool.failed` → audit — and resolves to a
 * `ToolResult`. It never rejects: every stage is contained, and failing collaborators fail closed.
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
export class ToolRegistry implements ToolRegistryContract {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #logger: Logger;
  readonly #dispatcher: EventDispatcher | null;
  readonly #gate: PolicyGate;
  readonly #validator: SchemaValidator;
  readonly #confirmationStore: ConfirmationStore;
  readonly #audit: ToolAuditLogger;
  readonly #estimator = new TokenEstimator();
  readonly #exposeErrorMessages: boolean;
  readonly #windowSeconds: number;
  readonly #maxTokens: number;
  readonly #cost: number;
  readonly #mutatingCost: number;
  /** Events this registry is dispatching, so its audit listener ignores other registries' events on a shared dispatcher. */
  readonly #ownEvents = new Set<object>();
  /** This registry's audit subscription to `tool.executed`, recognised by {@link ToolRegistry.#auditsAlone}. */
  readonly #auditExecuted: EventListener = (eventName, payload) => {
    if (this.#ownEvents.has(payload['event'] as object)) this.#audit.onToolExecuted(eventName, payload);
  };
  /** This registry's audit subscription to `tool.failed`. */
  readonly #auditFailed: EventListener = (eventName, payload) => {
    if (this.#ownEvents.has(payload['event'] as object)) this.#audit.onToolFailed(eventName, payload);
  };
  #rateLimiter: RateLimiter | null;

  /**
   * @throws MilpaError `INVALID_ARGUMENT` for non-positive rate-limit settings.
   */
  constructor(options: ToolRegistryOptions = {}) {
    this.#logger = options.logger ?? silentLogger;
    this.#dispatcher = options.dispatcher ?? null;
    this.#rateLimiter = options.rateLimiter ?? null;
    const rateLimit = options.rateLimit ?? {};
    this.#windowSeconds = ToolRegistry.#positive('rateLimit.windowSeconds', rateLimit.windowSeconds ?? 60);
    this.#maxTokens = ToolRegistry.#positive('rateLimit.maxTokens', rateLimit.maxTokens ?? 100);
    this.#cost = ToolRegistry.#positive('rateLimit.cost', rateLimit.cost ?? 1);
    this.#mutatingCost = ToolRegistry.#positive('rateLimit.mutatingCost', rateLimit.mutatingCost ?? 5);
    this.#exposeErrorMessages = options.exposeErrorMessages ?? true;
    this.#validator = options.validator ?? new SchemaValidator();
    this.#confirmationStore = options.confirmationStore ?? new ConfirmationTokenStore();
    // DESIGN 11: the gate logs unknown-channel warnings through the registry's own logger.
    this.#gate = new PolicyGate({
      logger: this.#logger,
      ruleProvider: options.ruleProvider ?? null,
      channelPolicies: options.channelPolicies ?? {},
    });
    this.#audit = new ToolAuditLogger(this.#logger, {
      schemaOf: (name) => this.#tools.get(name)?.definition.inputSchema ?? null,
    });
    for (const field of options.sensitiveFields ?? []) this.#audit.addSensitiveField(field);

    if (this.#dispatcher !== null) {
      // The audit logger is a listener (seed 0.5), subscribed before any host listener at priority 0.
      this.#dispatcher.subscribe(ToolEvents.EXECUTED, this.#auditExecuted, 0);
      this.#dispatcher.subscribe(ToolEvents.FAILED, this.#auditFailed, 0);
    }
  }

  static #positive(name: string, value: number): number {
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new MilpaError(`ToolRegistry option ${name} must be a positive number, got ${String(value)}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    return value;
  }

  // ---------------------------------------------------------------- registration

  /**
   * Registers a tool (from `defineTool`, the `tool` decorator, or a hand-built object). The input
   * schema is compiled now, so an invalid schema fails here and never at call time.
   *
   * @throws ToolAlreadyRegisteredError for a duplicate name (the first registration stays).
   * @throws MilpaError `INVALID_TOOL_DEFINITION` / `INVALID_SCHEMA` for an invalid definition or schema.
   */
  register(definition: AnyToolDefinition): void {
    const normalized = normalizeToolDefinition(definition);
    if (this.#tools.has(normalized.name)) throw new ToolAlreadyRegisteredError(normalized.name);
    const validate = isEmptySchema(normalized.inputSchema) ? null : this.#validator.compile(normalized.inputSchema);
    if (normalized.outputSchema !== null) this.#validator.compile(normalized.outputSchema);
    this.#tools.set(normalized.name, {
      definition: normalized,
      validate,
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
    return this.getToolDefinitions().map((definition) => ToolRegistry.#summarize(definition));
  }

  static #summarize(definition: AnyToolDefinition): ToolSummary {
    const summary: { -readonly [K in keyof ToolSummary]: ToolSummary[K] } = {
      name: definition.name,
      description: definition.description,
      inputSchema: isEmptySchema(definition.inputSchema) ? { type: 'object' } : definition.inputSchema,
    };
    if (definition.version !== null) summary.version = definition.version;
    if (definition.outputSchema !== null) summary.outputSchema = definition.outputSchema;
    return summary;
  }

  /**
   * Tools a holder of `scopes` may see: tools declaring no scopes, or sharing at least one scope;
   * `'*'` in `scopes` sees every tool.
   */
  getToolsByScopes(scopes: readonly string[]): ToolListing[] {
    const all = scopes.includes('*');
    return this.getToolDefinitions()
      .filter((definition) => all || definition.scopes.length === 0 || definition.scopes.some((scope) => scopes.includes(scope)))
      .map(ToolRegistry.#listing);
  }

  /** Tools whose name starts with `prefix`. */
  getToolsByPrefix(prefix: string): ToolListing[] {
    return this.getToolDefinitions()
      .filter((definition) => definition.name.startsWith(prefix))
      .map(ToolRegistry.#listing);
  }

  static #listing(definition: AnyToolDefinition): ToolListing {
    return { name: definition.name, description: definition.description, inputSchema: definition.inputSchema };
  }

  // ---------------------------------------------------------------- token budgets

  /**
   * The summaries that fit 30 % of `model`'s context, `priorityTools` first, the rest in
   * registration order (greedy; a tool that does not fit is skipped and the pass continues).
   * Logs a warning naming up to five excluded tools.
   */
  getToolsWithinBudget(model: string, priorityTools: readonly string[] = []): ToolsWithinBudget {
    const summaries = this.getToolSummaries();
    const priority = priorityTools
      .map((name) => summaries.find((summary) => summary.name === name))
      .filter((summary): summary is ToolSummary => summary !== undefined);
    const ordered = [...priority, ...summaries.filter((summary) => !priority.includes(summary))];
    const selection = this.#estimator.selectToolsWithinBudget(ordered, model);
    if (selection.excluded.length > 0) {
      const shown = selection.excluded.slice(0, 5).join(', ');
      const more = selection.excluded.length > 5 ? '...' : '';
      this.#safeLog('warn', { excluded: selection.excluded, model }, `[ToolRegistry] Token budget exceeded. Excluded ${selection.excluded.length} tools: ${shown}${more}`);
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
    return this.#gate;
  }

  /** The confirmation store. */
  getConfirmationStore(): ConfirmationStore {
    return this.#confirmationStore;
  }

  /** The audit logger (e.g. to add sensitive fields). */
  getAuditLogger(): ToolAuditLogger {
    return this.#audit;
  }

  /** The schema validator. */
  getSchemaValidator(): SchemaValidator {
    return this.#validator;
  }

  /** Sets (or, with null, removes) the rate limiter. */
  setRateLimiter(limiter: RateLimiter | null): void {
    this.#rateLimiter = limiter;
  }

  /** The rate limiter, or null. */
  getRateLimiter(): RateLimiter | null {
    return this.#rateLimiter;
  }

  /** True when a rate limiter is set. */
  hasRateLimiter(): boolean {
    return this.#rateLimiter !== null;
  }

  /** True when a dispatcher was given to the constructor. */
  hasDispatcher(): boolean {
    return this.#dispatcher !== null;
  }

  /** What is wired into this registry, for inspection. */
  getWiring(): RegistryWiring {
    return new RegistryWiring(this.hasRateLimiter(), this.hasDispatcher(), this.#gate.hasRuleProvider(), {
      call: this.#cost,
      mutating: this.#mutatingCost,
    });
  }

  /**
   * The `InvocationPlan` of tool `name` for a caller in `context`: which steps would run and why.
   * Executes nothing. Null for an unknown tool.
   */
  inspect(name: string, context: ToolContext): InvocationPlan | null {
    const entry = this.#tools.get(name);
    if (entry === undefined) return null;
    return new InvocationPlanBuilder(this.#gate).build(entry.definition, context, this.getWiring());
  }

  // ---------------------------------------------------------------- the pipeline

  /**
   * Runs one call through the pipeline. Never rejects: every outcome is a `ToolResult`
   * (`meta.code` tells refusals apart). Without a context the call runs as `ToolContext.cli()`.
   */
  async call(name: string, args: unknown = EMPTY_ARGS, context?: ToolContext, options?: ToolCallOptions): Promise<ToolResult> {
    const startedAt = performance.now();
    let callContext: ToolContext;
    try {
      callContext = context === undefined ? ToolContext.cli() : ToolRegistry.#toContext(context);
    } catch (error) {
      return ToolResult.failure(ToolErrorCode.VALIDATION_ERROR, `Invalid context: ${messageOf(error)}`, null, {
        tool: nameOf(name),
        took_ms: 0,
      });
    }
    try {
      const outcome = this.#run(name, args, callContext, options, startedAt);
      return isPromiseLike(outcome) ? await outcome : outcome;
    } catch (error) {
      // Last line of containment: a fault in the pipeline itself must still be a result.
      return this.#internalError(nameOf(name), callContext, args, startedAt, 'pipeline', error);
    }
  }

  /** `rateLimitKey(channel, principal, tool)`, memoized for the tool's last caller. */
  static #rateLimitKeyOf(entry: RegisteredTool, context: ToolContext): string {
    const memo = entry.rateLimitKey;
    if (memo !== null && memo.channel === context.channel && memo.principal === context.principal) return memo.key;
    const key = rateLimitKey(context.channel, context.principal, entry.definition.name);
    entry.rateLimitKey = { channel: context.channel, principal: context.principal, key };
    return key;
  }

  static #toContext(context: unknown): ToolContext {
    if (context instanceof ToolContext) return context;
    // A context from another copy of core, or a plain object: rebuild it (and validate it).
    return new ToolContext(context as ConstructorParameters<typeof ToolContext>[0]);
  }

  /**
   * Steps 1–4, then the later steps through {@link ToolRegistry.#afterAuthorization}. Every stage runs
   * synchronously unless a collaborator answers with a promise (an async rule provider, limiter,
   * confirmation store, `tool.executing` listener or handler), so a call through synchronous ones
   * costs a single promise: `call()`'s own.
   */
  #run(
    name: string,
    rawArgs: unknown,
    context: ToolContext,
    options: ToolCallOptions | undefined,
    startedAt: number,
  ): ToolResult | Promise<ToolResult> {
    // 1. Resolve.
    const entry = typeof name === 'string' ? this.#tools.get(name) : undefined;
    if (entry === undefined) {
      const toolName = nameOf(name);
      // Nothing ran, so took_ms is 0 by definition (seed §3 D43), not a clock reading.
      const result = ToolResult.error(`Tool not found: ${toolName}`, null, {
        ...this.#meta(toolName, context, startedAt),
        took_ms: 0,
        code: ToolErrorCode.TOOL_NOT_FOUND,
      });
      this.#audit.logOutcome('not_found', context, toolName, null, result.meta['took_ms'] as number);
      return result;
    }
    const tool = entry.definition;

    // 2. Clamp, then 3. validate (DESIGN 6: clamps coerce first, schema bounds then reject).
    if (!isPlainArgs(rawArgs)) {
      return this.#validationFailure(tool.name, context, rawArgs, startedAt, [
        { path: '', message: `Arguments must be an object, got ${describeType(rawArgs)}` },
      ]);
    }
    // DESIGN 2: confirm_token is stripped before validation, so strict schemas still work.
    const needsConfirmation = this.#gate.requiresConfirmation(context, tool);
    let args: Readonly<Record<string, unknown>> = rawArgs;
    let confirmToken: unknown;
    let hasToken = false;
    if (needsConfirmation && Object.hasOwn(rawArgs, 'confirm_token')) {
      const { confirm_token: token, ...rest } = rawArgs;
      args = rest;
      confirmToken = token;
      hasToken = token !== null && token !== undefined;
    }
    if (entry.hasClamps) args = this.#validator.applyClamps(args, tool.clamps);
    if (entry.validate !== null) {
      const validation: ValidationResult = entry.validate(args);
      if (!validation.valid) return this.#validationFailure(tool.name, context, args, startedAt, validation.issues, validation);
    }

    // 4. Authorize (fail-closed: the gate turns a throwing rule provider into a denial).
    this.#debugAuthorize(tool, context);
    const state: PipelineState = { entry, context, args, options, startedAt, needsConfirmation, hasToken, confirmToken };
    const authorization = this.#gate.authorize(context, tool);
    return isPromiseLike(authorization) ? this.#authorizeLater(state, authorization) : this.#afterAuthorization(state, authorization);
  }

  async #authorizeLater(state: PipelineState, pending: PromiseLike<AuthorizationResult>): Promise<ToolResult> {
    let authorization: AuthorizationResult;
    try {
      authorization = await untilCallerAborts(pending, state.options?.signal);
    } catch (error) {
      if (error === CALLER_ABORTED) return this.#callerAborted(state);
      throw error;
    }
    return this.#afterAuthorization(state, authorization);
  }

  /** The authorization verdict, then step 5: rate-limit (fail-closed: a throwing limiter refuses the call). */
  #afterAuthorization(state: PipelineState, authorization: AuthorizationResult): ToolResult | Promise<ToolResult> {
    const { entry, context, args, startedAt } = state;
    const tool = entry.definition;
    if (!authorization.allowed) {
      const reason = authorization.reason ?? 'Forbidden';
      this.#debug({ tool: tool.name }, `[ToolRegistry] Auth result: DENIED: ${reason}`);
      this.#audit.logAuthFailure(context, tool.name, reason, args);
      return ToolResult.error(reason, null, { ...this.#meta(tool.name, context, startedAt), code: ToolErrorCode.FORBIDDEN });
    }
    // Checked here, not in #debug: the line's context object would be allocated on every call.
    if (this.#isDebugEnabled()) this.#safeLog('debug', { tool: tool.name }, '[ToolRegistry] Auth result: ALLOWED');

    // 5. Rate-limit.
    const limiter = this.#rateLimiter;
    if (limiter === null) return this.#afterRateLimit(state);
    let verdict: RateLimitResult | Promise<RateLimitResult>;
    try {
      verdict = limiter.consume(
        ToolRegistry.#rateLimitKeyOf(entry, context),
        tool.mutating ? this.#mutatingCost : this.#cost,
        this.#windowSeconds,
        this.#maxTokens,
      );
      if (isPromiseLike(verdict)) return this.#rateLimitLater(state, verdict);
    } catch (error) {
      return this.#internalError(tool.name, context, args, startedAt, 'rate limiter', error);
    }
    return this.#applyRateLimit(state, verdict);
  }

  async #rateLimitLater(state: PipelineState, pending: PromiseLike<RateLimitResult>): Promise<ToolResult> {
    let verdict: RateLimitResult;
    try {
      verdict = await untilCallerAborts(pending, state.options?.signal);
    } catch (error) {
      if (error === CALLER_ABORTED) return this.#callerAborted(state);
      return this.#internalError(state.entry.definition.name, state.context, state.args, state.startedAt, 'rate limiter', error);
    }
    return this.#applyRateLimit(state, verdict);
  }

  /** The limiter's verdict: a refusal ends the call here. */
  #applyRateLimit(state: PipelineState, verdict: RateLimitResult): ToolResult | Promise<ToolResult> {
    const { entry, context, args, startedAt } = state;
    const tool = entry.definition;
    // Only a boolean decides: a truthy '0' or 1 passed through by an adapter must not let a call run.
    if (typeof verdict?.allowed !== 'boolean') {
      const malformed = new Error('it returned a malformed verdict (allowed must be a boolean)');
      return this.#internalError(tool.name, context, args, startedAt, 'rate limiter', malformed);
    }
    if (!verdict.allowed) {
      const reason = verdict.reason ?? 'Rate limit exceeded';
      const result = ToolResult.error(reason, null, {
        ...this.#meta(tool.name, context, startedAt),
        code: ToolErrorCode.RATE_LIMITED,
        retry_after_seconds: verdict.retryAfterSeconds ?? 0,
      });
      this.#audit.logRateLimited(context, tool.name, args, reason, result.meta['took_ms'] as number);
      return result;
    }
    return this.#afterRateLimit(state);
  }

  /** Steps 6 (plan mode) and 7 (confirm). */
  #afterRateLimit(state: PipelineState): ToolResult | Promise<ToolResult> {
    const { entry, context, args, startedAt, needsConfirmation } = state;
    const tool = entry.definition;

    // 6. Plan mode: everything above ran for real; nothing below runs.
    if (context.isPlanMode()) {
      this.#debug({ tool: tool.name }, `[ToolRegistry] Plan mode for ${tool.name} - returning plan without execution`);
      const result = ToolResult.success(
        {
          plan: {
            tool: tool.name,
            mutating: tool.mutating,
            requires_confirmation: needsConfirmation,
            scopes_required: tool.scopes,
            timeout: tool.timeoutMs / 1000,
            timeout_ms: tool.timeoutMs,
            args: planArgs(args, this.#audit.redactor, tool.inputSchema),
          },
        },
        null,
        this.#meta(tool.name, context, startedAt),
      );
      this.#audit.logOutcome('plan', context, tool.name, args, result.meta['took_ms'] as number);
      return result;
    }

    // 7. Confirm.
    if (needsConfirmation) return this.#confirm(state);
    return this.#interceptAndExecute(state);
  }

  async #confirm(state: PipelineState): Promise<ToolResult> {
    const { entry, context, args, startedAt, hasToken, confirmToken } = state;
    const tool = entry.definition;
    const binding: ConfirmationBinding = { principal: context.principal, channel: context.channel };
    if (!hasToken) return this.#requestConfirmation(state, binding);
    try {
      const redeemed =
        typeof confirmToken === 'string'
          ? await untilCallerAborts(this.#confirmationStore.consume(confirmToken, tool.name, binding), state.options?.signal)
          : null;
      // Only an object is redeemed arguments: `undefined` (a store's `map.get()` miss) or any other
      // value means no such token, never a call that runs without its confirmation.
      if (!isPlainArgs(redeemed)) {
        const result = ToolResult.error(INVALID_TOKEN_MESSAGE, null, {
          ...this.#meta(tool.name, context, startedAt),
          code: ToolErrorCode.VALIDATION_ERROR,
        });
        this.#audit.logOutcome('invalid_token', context, tool.name, args, result.meta['took_ms'] as number, INVALID_TOKEN_MESSAGE);
        return result;
      }
      // The first call's (validated, clamped) args win; the replay's other args are inert.
      state.args = redeemed;
    } catch (error) {
      if (error === CALLER_ABORTED) return this.#callerAborted(state);
      return this.#internalError(tool.name, context, args, startedAt, 'confirmation store', error);
    }
    return this.#interceptAndExecute(state);
  }

  /** Step 8 when anyone listens to `tool.executing`, then step 9. */
  #interceptAndExecute(state: PipelineState): ToolResult | Promise<ToolResult> {
    // 8. The security anchor: tool.executing only ever fires after every gate said yes.
    const dispatcher = this.#dispatcher;
    if (dispatcher !== null && dispatcher.hasSubscribers(ToolEvents.EXECUTING)) return this.#intercept(dispatcher, state);
    // 9. Execute, contained.
    return this.#execute(state.entry, state.context, state.args, state.options, state.startedAt);
  }

  async #intercept(dispatcher: EventDispatcher, state: PipelineState): Promise<ToolResult> {
    const { entry, context, args, startedAt } = state;
    const tool = entry.definition;
    const slot = new InterceptionSlot();
    try {
      await untilCallerAborts(
        dispatcher.dispatch(ToolEvents.EXECUTING, { event: new ToolExecutingEvent(tool.name, context, args), slot }),
        state.options?.signal,
      );
    } catch (error) {
      // A stalled listener must not outlive a caller who gave up: the call is refused, never run.
      if (error === CALLER_ABORTED) return this.#callerAborted(state);
      // A dispatcher that does not isolate its listeners must not let a call through unintercepted.
      return this.#internalError(tool.name, context, args, startedAt, 'tool.executing dispatch', error);
    }
    if (slot.isStopped()) {
      if (slot.hasResult()) {
        const value = slot.getResult();
        const result = ToolResult.isToolResult(value)
          ? value
          : ToolResult.success(value, null, this.#meta(tool.name, context, startedAt));
        const notified = this.#emitExecuted(tool.name, context, args, result, true);
        if (notified !== undefined) await notified;
        return result;
      }
      const vetoed = ToolResult.blocked(VETO_MESSAGE).withMeta(this.#meta(tool.name, context, startedAt));
      this.#audit.logOutcome('vetoed', context, tool.name, args, vetoed.meta['took_ms'] as number, VETO_MESSAGE);
      return vetoed;
    }

    // 9. Execute, contained.
    return this.#execute(entry, context, args, state.options, startedAt);
  }

  /**
   * Runs the handler. Synchronous when the handler is (and no listener besides the registry's own
   * audit has to run): a promise is only created when something actually has to be awaited.
   */
  #execute(
    entry: RegisteredTool,
    context: ToolContext,
    args: ToolArgs,
    options: ToolCallOptions | undefined,
    startedAt: number,
  ): ToolResult | Promise<ToolResult> {
    const tool = entry.definition;
    const callerSignal = options?.signal;
    if (callerSignal?.aborted) return this.#callerAborted({ entry, context, args, startedAt });
    const invocation = new ToolInvocationState(context, options?.caller ?? unsupportedCaller, startedAt, tool.timeoutMs, callerSignal);
    let value: unknown;
    let pending: boolean;
    try {
      value = tool.handler(args, invocation);
      pending = isPromiseLike(value);
    } catch (error) {
      invocation.finish();
      return this.#handlerFailed(tool.name, context, args, startedAt, error);
    }
    if (pending) return this.#settle(value as PromiseLike<unknown>, invocation, tool, context, args, startedAt);
    invocation.finish();
    return this.#executed(tool, context, args, startedAt, value);
  }

  /** Awaits an asynchronous handler (racing the deadline for a hard timeout), contained. */
  async #settle(
    pending: PromiseLike<unknown>,
    invocation: ToolInvocationState,
    tool: AnyToolDefinition,
    context: ToolContext,
    args: ToolArgs,
    startedAt: number,
  ): Promise<ToolResult> {
    let value: unknown;
    try {
      value = tool.hardTimeout ? await this.#raceDeadline(pending, invocation, tool.timeoutMs, startedAt) : await pending;
    } catch (error) {
      invocation.finish();
      if (error === HARD_TIMEOUT) return this.#hardTimeout(tool.name, context, args, startedAt);
      return this.#handlerFailed(tool.name, context, args, startedAt, error);
    }
    invocation.finish();
    return this.#executed(tool, context, args, startedAt, value);
  }

  /** The result of a handler that returned `value`, with the soft-timeout meta, after `tool.executed`. */
  #executed(tool: AnyToolDefinition, context: ToolContext, args: ToolArgs, startedAt: number, value: unknown): ToolResult | Promise<ToolResult> {
    // One clock read serves took_ms and the soft-timeout check (a clock read is not free on every host).
    const elapsedMs = performance.now() - startedAt;
    const meta = this.#metaAfter(tool.name, context, elapsedMs);
    let result = ToolResult.isToolResult(value)
      ? new ToolResult(value.success, value.data, value.message, value.error, Object.freeze(Object.assign({}, meta, value.meta)))
      : ToolResult.success(value, null, meta);
    if (elapsedMs > tool.timeoutMs) {
      result = result.withMeta({
        timeout_exceeded: true,
        execution_time: Math.round(elapsedMs) / 1000,
        timeout_limit: tool.timeoutMs / 1000,
      });
    }
    const notified = this.#emitExecuted(tool.name, context, args, result, false);
    return notified === undefined ? result : notified.then(() => result);
  }

  #raceDeadline(pending: PromiseLike<unknown>, invocation: ToolInvocationState, timeoutMs: number, startedAt: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        invocation.abortForTimeout();
        reject(HARD_TIMEOUT);
      }, Math.max(0, startedAt + timeoutMs - performance.now()));
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

  #hardTimeout(name: string, context: ToolContext, args: ToolArgs, startedAt: number): ToolResult {
    const definition = this.#tools.get(name)?.definition;
    const limitMs = definition?.timeoutMs ?? 0;
    const result = ToolResult.error(`Tool '${name}' timed out after ${limitMs} ms`, null, {
      ...this.#meta(name, context, startedAt),
      code: ToolErrorCode.TIMEOUT,
      timeout_exceeded: true,
      timeout_limit: limitMs / 1000,
    });
    this.#audit.log(context, name, args, false, ToolErrorCode.TIMEOUT, result.meta['took_ms'] as number);
    this.#audit.logTimeout(context, name, (performance.now() - startedAt) / 1000, limitMs / 1000);
    return result;
  }

  async #handlerFailed(name: string, context: ToolContext, args: ToolArgs, startedAt: number, error: unknown): Promise<ToolResult> {
    const detail = this.#scrub(messageOf(error), args, name);
    this.#safeLog('error', { tool: name, request_id: context.requestId, error: detail }, `[ToolRegistry] ${name} threw exception: ${detail}`);
    const message = this.#exposeErrorMessages ? detail : `Tool '${name}' failed (request ${context.requestId})`;
    const result = ToolResult.error(message, null, { ...this.#meta(name, context, startedAt), code: ToolErrorCode.INTERNAL_ERROR });
    const tookMs = result.meta['took_ms'] as number;
    if (this.#auditsAlone(ToolEvents.FAILED, this.#auditFailed)) {
      this.#audit.logFailed(context, name, args, error, tookMs);
    } else {
      await this.#emit(ToolEvents.FAILED, new ToolFailedEvent(name, context, args, error, tookMs));
    }
    return result;
  }

  /**
   * Emits `tool.executed`; returns a promise only when listeners other than this registry's audit
   * have to run, so the common path (no host listener) builds no event and awaits nothing.
   */
  #emitExecuted(name: string, context: ToolContext, args: ToolArgs, result: ToolResult, cacheServed: boolean): Promise<void> | undefined {
    if (this.#auditsAlone(ToolEvents.EXECUTED, this.#auditExecuted)) {
      this.#audit.logExecuted(context, name, args, result, cacheServed);
      return undefined;
    }
    return this.#emit(ToolEvents.EXECUTED, new ToolExecutedEvent(name, context, args, result, cacheServed));
  }

  /**
   * True when nobody but this registry's own audit listener would see `eventName`: there is no
   * dispatcher ("no dispatcher" never means "no audit"), or the dispatcher lists exactly that
   * listener (by contract `getSubscribers` is what `dispatch` would run). The registry then audits
   * directly, with the same outcome as a dispatch and without building the event.
   */
  #auditsAlone(eventName: string, ownListener: EventListener): boolean {
    const dispatcher = this.#dispatcher;
    if (dispatcher === null) return true;
    try {
      const subscribers = dispatcher.getSubscribers(eventName);
      return subscribers.length === 1 && subscribers[0] === ownListener;
    } catch {
      // A dispatcher that cannot list its subscribers gets the event dispatched, as before.
      return false;
    }
  }

  /**
   * Post-execution notification. Outside the containment boundary of the handler and isolated: a
   * throwing listener (or dispatcher) can never turn a settled result into a failure (DESIGN 1).
   */
  async #emit(eventName: string, event: object): Promise<void> {
    const dispatcher = this.#dispatcher;
    if (dispatcher === null) return;
    // Held only while the dispatch runs (by contract every listener has run when it settles), in a
    // strong Set: a WeakSet entry per call cost about 1 µs on V8, more than the rest of the pipeline.
    this.#ownEvents.add(event);
    try {
      const payload: EventPayload = { event };
      const pending = dispatcher.dispatch(eventName, payload);
      if (isPromiseLike(pending)) await pending;
    } catch (error) {
      this.#safeLog('warn', { event: eventName, error: messageOf(error) }, `[ToolRegistry] ${eventName} listener failed: ${messageOf(error)}`);
    } finally {
      this.#ownEvents.delete(event);
    }
  }

  /**
   * The caller's signal aborted before the handler started: the call is refused with `TIMEOUT`
   * (the caller's deadline, not the tool's) and nothing runs. Also ends a wait on a collaborator
   * (rule provider, limiter, store, `tool.executing` listener) that never settles.
   */
  #callerAborted(state: Pick<PipelineState, 'entry' | 'context' | 'args' | 'startedAt'>): ToolResult {
    const { entry, context, args, startedAt } = state;
    const name = entry.definition.name;
    const message = `Call to '${name}' was aborted by the caller before execution`;
    const result = ToolResult.error(message, null, { ...this.#meta(name, context, startedAt), code: ToolErrorCode.TIMEOUT });
    this.#audit.log(context, name, args, false, ToolErrorCode.TIMEOUT, result.meta['took_ms'] as number);
    return result;
  }

  async #requestConfirmation(state: PipelineState, binding: ConfirmationBinding): Promise<ToolResult> {
    const { entry, context, args, startedAt } = state;
    const tool = entry.definition;
    const summary = describeActionSummary(tool.name, args, this.#audit.redactor, tool.inputSchema);
    let token;
    try {
      token = await untilCallerAborts(this.#confirmationStore.create(tool.name, args, summary, binding), state.options?.signal);
    } catch (error) {
      if (error === CALLER_ABORTED) return this.#callerAborted(state);
      return this.#internalError(tool.name, context, args, startedAt, 'confirmation store', error);
    }
    const result = new ToolResult(
      true,
      {
        requires_confirmation: true,
        confirm_token: token.token,
        action_summary: token.actionSummary,
        expires_at: formatExpiresAt(token.expiresAt),
      },
      token.actionSummary,
      null,
      { ...this.#meta(tool.name, context, startedAt), type: 'confirmation', requires_confirmation: true },
    );
    this.#audit.logOutcome('confirmation_requested', context, tool.name, args, result.meta['took_ms'] as number);
    return result;
  }

  #validationFailure(
    name: string,
    context: ToolContext,
    args: unknown,
    startedAt: number,
    issues: readonly { readonly path: string; readonly message: string }[],
    validation?: ValidationResult,
  ): ToolResult {
    const errors = validation?.errors ?? issues.map((issue) => issue.message);
    this.#audit.logValidationFailure(context, name, errors, args);
    return ToolResult.error(errors.join('; '), null, {
      ...this.#meta(name, context, startedAt),
      code: ToolErrorCode.VALIDATION_ERROR,
      errors: issues.map((issue) => ({ path: issue.path, message: issue.message })),
    });
  }

  /** A collaborator (rate limiter, store, dispatcher) failed: refuse the call, fail-closed. */
  #internalError(name: string, context: ToolContext, args: unknown, startedAt: number, stage: string, error: unknown): ToolResult {
    const detail = this.#scrub(messageOf(error), args, name);
    const message = `Tool call refused: the ${stage} failed (fail-closed): ${detail}`;
    const result = ToolResult.error(message, null, { ...this.#meta(name, context, startedAt), code: ToolErrorCode.INTERNAL_ERROR });
    this.#audit.logOutcome('internal_error', context, name, args, result.meta['took_ms'] as number, message);
    return result;
  }

  /**
   * Standard meta: `{tool, took_ms, request_id, channel, principal}`, frozen as built. `ToolResult`
   * keeps a frozen meta as it is; an unfrozen one it copies with a spread and freezes, and on V8 that
   * copy-then-freeze costs several times the whole rest of the pipeline (and merged metas are built
   * with `Object.assign` for the same reason).
   */
  #meta(name: string, context: ToolContext, startedAt: number): ToolResultMeta {
    return this.#metaAfter(name, context, performance.now() - startedAt);
  }

  /** {@link ToolRegistry.#meta} for a call that has taken `elapsedMs` so far. */
  #metaAfter(name: string, context: ToolContext, elapsedMs: number): ToolResultMeta {
    return Object.freeze({
      tool: name,
      took_ms: Math.round(elapsedMs),
      request_id: context.requestId,
      channel: context.channel,
      principal: context.principal,
    });
  }

  /** Removes the call's secret values from text the runtime writes (DESIGN 4). */
  #scrub(text: string, args: unknown, name: string): string {
    try {
      const schema = this.#tools.get(name)?.definition.inputSchema ?? null;
      const secrets = this.#audit.redactor.collectSecrets(args, schema);
      return secrets.length === 0 ? text : this.#audit.redactor.scrub(text, secrets);
    } catch {
      return text;
    }
  }

  #debugAuthorize(tool: AnyToolDefinition, context: ToolContext): void {
    if (this.#logger.isLevelEnabled?.('debug') === false) return;
    const list = (scopes: readonly string[]): string => (scopes.length === 0 ? '(none)' : scopes.join(', '));
    this.#debug({ tool: tool.name }, `[ToolRegistry] Authorizing ${tool.name} for principal=${context.principal ?? 'anonymous'}, channel=${context.channel}`);
    this.#debug({ tool: tool.name }, `[ToolRegistry] Tool scopes required: ${list(tool.scopes)}`);
    this.#debug({ tool: tool.name }, `[ToolRegistry] Context scopes: ${list(context.scopes)}`);
  }

  #debug(context: Record<string, unknown>, message: string): void {
    if (!this.#isDebugEnabled()) return;
    this.#safeLog('debug', context, message);
  }

  /** False only when the logger says debug is off (a logger without `isLevelEnabled` gets every line). */
  #isDebugEnabled(): boolean {
    return this.#logger.isLevelEnabled?.('debug') !== false;
  }

  /** A throwing logger must never make `call()` reject. */
  #safeLog(level: 'debug' | 'info' | 'warn' | 'error', context: Record<string, unknown>, message: string): void {
    try {
      swallowRejection(this.#logger[level](context, message));
    } catch {
      // Deliberately ignored: logging is best effort, the call's outcome is not.
    }
  }
}

/** Sentinel rejection of {@link untilCallerAborts}. */
const CALLER_ABORTED: unique symbol = Symbol('milpa.callerAborted');

/**
 * `pending`, or a rejection with {@link CALLER_ABORTED} as soon as the caller's signal aborts. Without
 * a signal it is `pending` itself (no extra promise, no listener).
 */
function untilCallerAborts<T>(pending: T | PromiseLike<T>, signal: AbortSignal | undefined): Promise<T> | T | PromiseLike<T> {
  if (signal === undefined || !isPromiseLike(pending)) return pending;
  if (signal.aborted) {
    // Observe the abandoned promise so its eventual rejection is never unhandled.
    Promise.resolve(pending).catch(() => undefined);
    return Promise.reject(CALLER_ABORTED);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(CALLER_ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve(pending).then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Sentinel rejection of a hard-timeout race. */
const HARD_TIMEOUT: unique symbol = Symbol('milpa.hardTimeout');
