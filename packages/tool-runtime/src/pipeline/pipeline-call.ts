import {
  ToolErrorCode,
  type PendingApproval,
  ToolResult,
  type CallOutcome,
  type GovernedCallOptions,
  type InvocationOutcome,
  type RefusalName,
  type InvocationTarget,
  type ToolArgs,
  type ToolContext,
  type ToolDenialReason,
  type ToolResultMeta,
} from '@milpa/core';
import type { Context } from '@opentelemetry/api';
import type { TidiedField } from '../tidying/tidy-arguments.js';
import { refusedOutcome } from './call-outcomes.js';
import type { PipelineServices } from './pipeline-services.js';
import type { RegisteredTool } from './registered-tool.js';
import { messageOf, nameOf } from './settle.js';
import { STOP } from './stage.js';

/**
 * Options of a single `call()`: the abort signal, the caller's channel capabilities, and the control
 * values that steer the call (`idempotencyKey`, `confirmToken`, `approvalId`) — never arguments.
 */
export type ToolCallOptions = GovernedCallOptions;

const EMPTY_ERRORS: readonly string[] = Object.freeze([]);

/** The collaborators that are stores, by the name `meta.store` gives them when they fail. */
const STORE_COLLABORATORS: Readonly<Record<string, string>> = Object.freeze({
  'confirmation store': 'confirmation',
  'rate limiter': 'rate_limit',
  'invocation history store': 'history',
  'idempotency store': 'idempotency',
});

/**
 * One call on its way through the stages. Each field is written by one stage (named on the field)
 * and read by the later ones; the terminal fields are written once, by whichever stage ends the call.
 */
export class PipelineCall {
  /** The registry's collaborators. */
  readonly services: PipelineServices;
  /** The name the caller asked for, as given (anything, from a hostile caller). */
  readonly requestedName: unknown;
  /** The arguments as given. */
  readonly rawArgs: unknown;
  /** Who is calling, from where. */
  readonly context: ToolContext;
  /** The caller's abort signal and channel capabilities. */
  readonly options: ToolCallOptions | undefined;
  /** `performance.now()` when the call started. */
  readonly startedAt: number;

  /** resolve: the registered tool. */
  entry: RegisteredTool | null = null;
  /** tidy: the tidied arguments, when tidying changed anything (clamp starts from them). */
  tidiedArgs: Readonly<Record<string, unknown>> | null = null;
  /** tidy: what tidying changed, reported as `meta.tidied` (never on a refusal); null when nothing was. */
  tidied: readonly TidiedField[] | null = null;
  /** validate: whether this call must be confirmed before it runs, decided with {@link PipelineCall.mutating}. */
  needsConfirmation = false;
  /** clamp: the arguments with clamps applied, not yet validated. */
  input: Readonly<Record<string, unknown>> | null = null;
  /**
   * validate: the validated arguments, a deeply frozen copy; confirm replaces them with the first
   * call's arguments when a token is redeemed. Everything after validation sees exactly these.
   */
  args: ToolArgs | null = null;
  /**
   * validate: whether this call mutates — the tool's flag, or its per-call function's answer for
   * the validated arguments, asked exactly once (a throw or a non-boolean answer counts as
   * mutating). Every later stage (authorize, rate limit, plan mode, confirm, and host stages) reads
   * this answer, never the function. On a confirmation replay, confirm asks once more for the
   * redeemed arguments that will execute and keeps mutating if either answer is.
   */
  mutating = false;

  /** approve: the held call this call was suspended as, or the one its resume redeemed. */
  approval: PendingApproval | null = null;

  /** idempotency: the key this call claimed (scoped to the principal) and the owner id it claimed it with; null when none. */
  idempotency: { readonly key: string; readonly owner: string } | null = null;

  /** rules: what the call acts on, as the host's target resolvers named it. */
  target: InvocationTarget | null = null;

  /**
   * rules: the id of the place this call holds in its run's history, or a promise of it while the
   * store answers (null when taking it failed); null when the call took none. History settles it.
   */
  reservation: string | PromiseLike<string | null> | null = null;

  /** Terminal: the result the caller gets; it carries {@link PipelineCall.ending} as `result.outcome`. */
  result: ToolResult | null = null;
  /** Terminal: how the call ended, typed; the one source of {@link PipelineCall.outcome}. */
  ending: CallOutcome | null = null;
  /** Terminal: the refusal's reason, for the audit record. */
  reason: string | undefined = undefined;
  /** Terminal: the validation messages of a `validation_failed` outcome. */
  errors: readonly string[] = EMPTY_ERRORS;
  /** Terminal: which check refused an `auth_denied` or `rate_limited` call (dispatched in `tool.denied`). */
  denial: ToolDenialReason | null = null;
  /** Terminal: the rule that refused an `invocation_denied` call; null when target resolution did. */
  deniedByRule: string | null = null;
  /** Terminal: what a handler threw (`failed`). */
  thrown: unknown = undefined;
  /** events: the audit record was written by the registry's audit listener during the dispatch. */
  audited = false;
  /**
   * call(): the OpenTelemetry context of the call's span, which execute runs the handler in; null
   * when telemetry is off or there is no SDK to propagate to.
   */
  telemetryContext: Context | null = null;

  constructor(
    services: PipelineServices,
    name: unknown,
    rawArgs: unknown,
    context: ToolContext,
    options: ToolCallOptions | undefined,
    startedAt: number,
  ) {
    this.services = services;
    this.requestedName = name;
    this.rawArgs = rawArgs;
    this.context = context;
    this.options = options;
    this.startedAt = startedAt;
  }

  /**
   * How the call ended, by the name the audit record and the run's history use: the name of
   * {@link PipelineCall.ending}, so both always agree. Null until a stage ends the call.
   */
  get outcome(): InvocationOutcome | null {
    const ending = this.ending;
    return ending === null ? null : ending.name;
  }

  /** A `tool.executing` listener answered instead of the handler. */
  get cacheServed(): boolean {
    const ending = this.ending;
    return ending !== null && ending.kind === 'executed' && ending.servedByListener;
  }

  /** The tool's name for messages, meta and audit (the requested name, as text, before resolve). */
  get toolName(): string {
    return this.entry !== null ? this.entry.definition.name : nameOf(this.requestedName);
  }

  /** The arguments as far as the call got: validated, else prepared, else as given. */
  get auditArgs(): unknown {
    if (this.args !== null) return this.args;
    if (this.input !== null) return this.input;
    return this.rawArgs;
  }

  /**
   * Standard meta: `{tool, took_ms, request_id, channel, principal}`, frozen as built. `ToolResult`
   * keeps a frozen meta as it is; an unfrozen one it copies with a spread and freezes, which on V8
   * costs several times the rest of the pipeline. It never lists what tidying changed: a refusal must
   * not hint at the schema (see {@link PipelineCall.reportingMeta}).
   */
  meta(): ToolResultMeta {
    return this.metaAfter(performance.now() - this.startedAt);
  }

  /**
   * {@link PipelineCall.meta} plus `tidied` (what argument tidying changed, field and action) when
   * tidying changed anything: only for a call that executed or waits for a person (a confirmation
   * token, a held approval), never for a refusal.
   */
  reportingMeta(): ToolResultMeta {
    return this.metaAfter(performance.now() - this.startedAt, true);
  }

  /** {@link PipelineCall.meta} for a call that has taken `elapsedMs` so far; with `tidied` when `withTidied` and it changed anything. */
  metaAfter(elapsedMs: number, withTidied = false): ToolResultMeta {
    if (withTidied && this.tidied !== null) {
      return Object.freeze({
        tool: this.toolName,
        took_ms: Math.round(elapsedMs),
        request_id: this.context.requestId,
        channel: this.context.channel,
        principal: this.context.principal,
        tidied: this.tidied,
      });
    }
    return Object.freeze({
      tool: this.toolName,
      took_ms: Math.round(elapsedMs),
      request_id: this.context.requestId,
      channel: this.context.channel,
      principal: this.context.principal,
    });
  }

  /**
   * Ends the call with `result` and how it ended; returns the runner's stop signal. `result` is
   * built with `outcome` (the constructor's last argument), so no second result is allocated; the
   * one exception is a `tool.executing` listener's own result, which the caller gets unchanged.
   */
  end(result: ToolResult, outcome: CallOutcome, reason?: string): typeof STOP {
    this.result = result;
    this.ending = outcome;
    this.reason = reason;
    return STOP;
  }

  /**
   * Ends the call with a refusal: `message`, `meta.code` and any extra meta; the outcome is `refused`
   * by `name`. The message is scrubbed of the call's secrets first: a refusal's reason (a rule
   * provider's, a gate's, a store's) may quote what it was asked about, and it reaches the caller,
   * `tool.denied` listeners and the audit.
   */
  refuse(code: ToolErrorCode, rawMessage: string, name: RefusalName, extraMeta?: Readonly<Record<string, unknown>>): typeof STOP {
    const message = this.scrub(rawMessage);
    // The shape of ToolResult.error(message, null, meta), built once with its outcome.
    const meta = extraMeta === undefined ? { ...this.meta(), code, type: 'error' } : { ...this.meta(), code, ...extraMeta, type: 'error' };
    const outcome = refusedOutcome(name, code, message);
    return this.end(new ToolResult(false, null, null, message, meta, outcome), outcome, message);
  }

  /**
   * An invocation rule (or target resolution, with `rule` null) refused the call: `FORBIDDEN` with
   * `meta.rule` and `meta.reason`. The message holds the tool's name, the rule's identifier and the
   * reason code only — never arguments or exception text.
   */
  denyInvocation(rule: string | null, reason: string): typeof STOP {
    const by = rule === null ? 'target resolution' : `invocation rule '${rule}'`;
    this.deniedByRule = rule;
    const message = `Call to '${this.toolName}' refused by ${by} (reason: ${reason}).`;
    return this.refuse(ToolErrorCode.FORBIDDEN, message, 'invocation_denied', { rule, reason });
  }

  /** `text` without this call's secret values (and anything secret by its shape), for text the runtime writes or passes on. */
  scrub(text: string): string {
    return this.services.scrub(text, this.auditArgs, this.toolName);
  }

  /** A collaborator failed: the call is refused, fail-closed, naming what failed. */
  failClosed(collaborator: string, error: unknown): typeof STOP {
    // refuse() scrubs the whole message, the collaborator's text included.
    const detail = messageOf(error);
    const message = `Tool call refused: the ${collaborator} failed (fail-closed): ${detail}`;
    const store = STORE_COLLABORATORS[collaborator];
    if (store !== undefined) return this.refuse(ToolErrorCode.STORE_UNAVAILABLE, message, 'internal_error', { store });
    return this.refuse(ToolErrorCode.INTERNAL_ERROR, message, 'internal_error');
  }

  /**
   * The caller's signal aborted before the handler started: the call is refused with `TIMEOUT` (the
   * caller's deadline, not the tool's) and nothing runs.
   */
  callerAborted(): typeof STOP {
    return this.refuse(ToolErrorCode.TIMEOUT, `Call to '${this.toolName}' was aborted by the caller before execution`, 'aborted');
  }
}
