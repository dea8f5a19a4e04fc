import type {
  ApprovalGate,
  ApprovalStore,
  ConfirmationStore,
  EventDispatcher,
  IdempotencyStore,
  InvocationHistoryStore,
  InvocationRule,
  JsonSchema,
  Logger,
  PolicyRuleProvider,
  RateLimiter,
  TargetResolver,
  ToolContext,
  ToolSummary,
} from '@milpa/core';
import type { AnyToolDefinition } from '@milpa/core';
import type { HostStagePlacement } from '../pipeline/host-stage.js';
import type { ChannelPolicy } from '../policy/channel-policy.js';
import type { ToolTelemetryOptions } from '../telemetry/tool-telemetry-options.js';
import type { SchemaValidator } from '../validation/schema-validator.js';

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
  /** Channel policies replacing the default policies of those channels. */
  readonly channelPolicies?: Readonly<Record<string, ChannelPolicy>>;
  /**
   * Return a handler's own exception message to the caller (default true).
   * When false the caller gets a generic message with the request id and the detail is only logged.
   */
  readonly exposeErrorMessages?: boolean;
  /**
   * Extra argument names to redact in logs and runtime-written messages, matched like the built-in
   * ones (case and separators ignored, as part of a longer name too).
   */
  readonly sensitiveFields?: readonly string[];
  /** Value patterns to redact from every string value and text the runtime writes, besides the built-in secret shapes. */
  readonly sensitivePatterns?: readonly RegExp[];
  /** A validator to share between registries (identical schemas compile once). */
  readonly validator?: SchemaValidator;
  /**
   * The context of a `call()` that passes none. Without it such a call is refused
   * (`VALIDATION_ERROR`): a governed runtime never grants rights by omission. A function is called
   * once per such call (`() => ToolContext.cli()` gives each call its own request id); a context is
   * used as it is, request id included. For scripts and tests that opt in knowingly.
   */
  readonly defaultContext?: ToolContext | (() => ToolContext);
  /**
   * Guards of the host's own, each placed right before or after a built-in stage between
   * validation and `tool.executing`; they are contained like every collaborator and listed by
   * `inspect()`. A placement after `tool.executing` is refused here, at construction.
   * @example [{ before: 'rate_limit', stage: tenantGuard }]
   */
  readonly stages?: readonly HostStagePlacement[];
  /**
   * OpenTelemetry: an `execute_tool <tool>` span per call and the `milpa.tool.calls` /
   * `milpa.tool.duration` metrics. Default: the global API's tracer and meter named
   * `@milpa/tool-runtime` (no-ops until an SDK is registered); `false` turns telemetry off.
   * @example { tracer: provider.getTracer('my-app') }
   */
  readonly telemetry?: ToolTelemetryOptions | false;
  /**
   * Invocation rules over each call's final arguments, actor, target and run history, run after
   * authorization in this order until one denies. Identifiers are checked here: the grammar
   * `[a-z][a-z0-9_.-]*` (at most 64 characters) and unique. No rules: calls behave as without them.
   */
  readonly rules?: readonly InvocationRule[];
  /** Name what a call acts on, for rules and for the run's history. Two claiming one call refuse it. */
  readonly targetResolvers?: readonly TargetResolver[];
  /**
   * Where each run's invocation history lives (default an `InMemoryInvocationHistoryStore`). Open
   * a run with `registry.startRun()` and pass its id as the context's `runId`.
   */
  readonly historyStore?: InvocationHistoryStore;
  /**
   * How long a call of a run holds its place in the run's history (default 900 s). When the
   * registry has invocation rules, each call of a run takes its place before the rules run, so
   * parallel calls see each other, and gives it up when it ends. A place is released after this
   * lease even if its call never ended (a crashed process); the run is then marked incomplete.
   * Make it longer than your slowest call, waiting gates included.
   */
  readonly historyLeaseSeconds?: number;
  /**
   * Tidy what a model sends before clamps and validation (default false): optional arguments sent
   * as null, blank, `*` or `%` are dropped (unless an enum value), numeric strings for number
   * properties converted, optional out-of-range numbers set to the schema's bound (a required one,
   * often an identifier, is refused by validation instead). It never widens a call: an identifier
   * field (`id`, `user_id`, `noteIds`, …) is never dropped or bounded, and a property marked
   * `'x-milpa-protected': true` is taken exactly as sent. Each change is listed in the result's
   * `meta.tidied` when the call executed or waits for a person (never on a refusal), and with its
   * redacted values in a confirmation's action summary and an approval request's `tidied`.
   */
  readonly tidyArguments?: boolean;
  /**
   * The most a result may carry, in estimated tokens of four characters (default 2,500, i.e.
   * 10,000 characters), for every outcome: `data`, `message`, `error` and the `meta` entries the
   * tool wrote share it, the note included. A longer result is cut, says so in a note (to narrow
   * the request or page) and carries `meta.truncated`, `original_chars`, `max_chars` and
   * `original_sizes`; the runtime's own meta entries stay whole. 0 turns the cap off.
   */
  readonly maxResultTokens?: number;
  /**
   * Tools no caller may see or call: names, and `group:` references expanded through `groups`. A
   * denied tool is never registered, so it is not listed and a call to it is `TOOL_NOT_FOUND`, as
   * if absent. A name that matches no tool is reported (`denyReport()`, and a warning when the
   * `tools` option registers the tools at construction).
   * @example { deny: ['shell_exec', 'group:writes'], groups: { 'group:writes': ['file_write', 'file_edit'] } }
   */
  readonly deny?: readonly string[];
  /** The groups `deny` may reference, keyed `group:<name>`. */
  readonly groups?: Readonly<Record<string, readonly string[]>>;
  /**
   * The context window, in tokens, of the model this registry's lists are budgeted for; it wins
   * over the built-in table of model limits (for a deployment the table does not know).
   */
  readonly contextWindow?: number;
  /** Tools to register at construction (after which the deny list is checked and reported). */
  readonly tools?: readonly AnyToolDefinition[];
  /**
   * Asked about every call that mutates for its arguments, after confirmation: it allows the call,
   * denies it (`APPROVAL_DENIED`) or holds it until someone else approves (`APPROVAL_PENDING` with
   * an `approval_id`). A gate that throws, answers garbage or outlives the caller's abort denies.
   * Default none: mutating calls run without asking.
   * @example { approvalGate: terminalApprovalGate() }
   */
  readonly approvalGate?: ApprovalGate | null;
  /** Per-tool gates by tool name, winning over `approvalGate`; `null` turns approval off for that tool. */
  readonly approvalGates?: Readonly<Record<string, ApprovalGate | null>>;
  /** Where held calls wait for their resume (default an `InMemoryApprovalStore`). */
  readonly approvalStore?: ApprovalStore;
  /** Seconds a held call stays resumable when its gate sets no expiry (default 3,600). */
  readonly approvalTtlSeconds?: number;
  /**
   * Where idempotency keys live (default an `InMemoryIdempotencyStore`); share one store (SQLite,
   * Redis) between processes so a retry reaching another process is still answered once.
   */
  readonly idempotencyStore?: IdempotencyStore;
  /** Seconds a key and its result are kept after the call completes, for retries to replay (default 86,400). */
  readonly idempotencyRetentionSeconds?: number;
  /**
   * Seconds a first call with a key may stay in flight (default 300); past it, if it never
   * completed (its process died), its outcome counts as unknown and retries with the key are
   * refused rather than run again. Set it above your longest tool timeout.
   */
  readonly idempotencyLeaseSeconds?: number;
}

/** Options of `registry.startRun()`. */
export interface StartRunOptions {
  /** The run's id (1 to 256 characters); default a new random id. A run the store knows is never reopened. */
  readonly runId?: string;
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
