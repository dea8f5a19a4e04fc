import type { IdempotencySettings } from '../idempotency/idempotency-settings.js';
import {
  ToolEvents,
  type JsonSchema,
  type ToolExecutedEvent,
  type ToolFailedEvent,
  type ConfirmationStore,
  type EventDispatcher,
  type EventListener,
  type EventPayload,
  type Logger,
  type RateLimiter,
} from '@milpa/core';
import type { ApprovalSettings } from '../approval/approval-settings.js';
import { redactForSink } from '../audit/redact-for-sink.js';
import { REDACTED } from '../audit/redactor.js';
import { swallowRejection } from '../audit/swallow-rejection.js';
import type { ToolAuditLogger } from '../audit/tool-audit-logger.js';
import type { InvocationRuleSet } from '../invocation/invocation-rule-set.js';
import type { PolicyGate } from '../policy/policy-gate.js';
import type { SchemaValidator } from '../validation/schema-validator.js';
import type { RegisteredTool } from './registered-tool.js';
import { isPromiseLike, messageOf } from './settle.js';

/** Window, budget and costs the rate-limit stage passes to the limiter. */
export interface RateLimitSettingsResolved {
  readonly windowSeconds: number;
  readonly maxTokens: number;
  readonly cost: number;
  readonly mutatingCost: number;
}

/**
 * What the registry's own audit listener records for an event this registry dispatches: the call's
 * arguments and what its handler threw as they were, since the event itself carries only redacted copies.
 */
export interface AuditedCall {
  /** The validated arguments the handler saw. */
  readonly args: unknown;
  /** What the handler threw (`tool.failed`). */
  readonly thrown: unknown;
}

/** What {@link PipelineServices} is built from. */
export interface PipelineServicesInit {
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  readonly logger: Logger;
  readonly dispatcher: EventDispatcher | null;
  readonly gate: PolicyGate;
  readonly validator: SchemaValidator;
  readonly confirmationStore: ConfirmationStore;
  readonly audit: ToolAuditLogger;
  readonly rateLimiter: RateLimiter | null;
  readonly rateLimit: RateLimitSettingsResolved;
  readonly exposeErrorMessages: boolean;
  readonly invocation: InvocationRuleSet;
  readonly tidyArguments: boolean;
  readonly maxResultChars: number;
  readonly approvals: ApprovalSettings;
  readonly idempotency: IdempotencySettings;
}

/**
 * The collaborators of one registry, shared by every stage through the call state: the stages
 * themselves hold nothing, so one list of stages serves every registry and inspection alike.
 */
export class PipelineServices {
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  readonly logger: Logger;
  readonly dispatcher: EventDispatcher | null;
  readonly gate: PolicyGate;
  readonly validator: SchemaValidator;
  readonly confirmationStore: ConfirmationStore;
  readonly audit: ToolAuditLogger;
  readonly rateLimit: RateLimitSettingsResolved;
  readonly exposeErrorMessages: boolean;
  /** The invocation rules, target resolvers and history store. */
  readonly invocation: InvocationRuleSet;
  /** Whether the tidy stage cleans arguments. */
  readonly tidyArguments: boolean;
  /** The result cap in characters; 0 when off. */
  readonly maxResultChars: number;
  /** The approval gates, the store of held calls and their TTL. */
  readonly approvals: ApprovalSettings;
  /** The idempotency store, and how long keys are kept and may stay in flight. */
  readonly idempotency: IdempotencySettings;
  /** Set through the registry's `setRateLimiter()`. */
  rateLimiter: RateLimiter | null;
  /**
   * Events this registry is dispatching, with the call each records, so its audit listener ignores
   * other registries' events on a shared dispatcher and audits its own calls from their arguments
   * (the events hold redacted ones; the audit redacts on its own, with the tool's schema).
   */
  readonly #ownEvents = new Map<object, AuditedCall>();
  /** This registry's audit subscription to `tool.executed`. */
  readonly auditExecuted: EventListener = (_eventName, payload) => {
    const event = payload['event'] as ToolExecutedEvent;
    const call = this.#ownEvents.get(event);
    if (call !== undefined) this.audit.logExecuted(event.context, event.name, call.args, event.result, event.cacheServed === true);
  };
  /** This registry's audit subscription to `tool.failed`. */
  readonly auditFailed: EventListener = (_eventName, payload) => {
    const event = payload['event'] as ToolFailedEvent;
    const call = this.#ownEvents.get(event);
    if (call !== undefined) this.audit.logFailed(event.context, event.name, call.args, call.thrown, event.tookMs);
  };

  constructor(init: PipelineServicesInit) {
    this.tools = init.tools;
    this.logger = init.logger;
    this.dispatcher = init.dispatcher;
    this.gate = init.gate;
    this.validator = init.validator;
    this.confirmationStore = init.confirmationStore;
    this.audit = init.audit;
    this.rateLimiter = init.rateLimiter;
    this.rateLimit = init.rateLimit;
    this.exposeErrorMessages = init.exposeErrorMessages;
    this.invocation = init.invocation;
    this.tidyArguments = init.tidyArguments;
    this.maxResultChars = init.maxResultChars;
    this.approvals = init.approvals;
    this.idempotency = init.idempotency;
    if (this.dispatcher !== null) {
      // The audit logger is a listener, subscribed before any host listener, at priority 0.
      this.dispatcher.subscribe(ToolEvents.EXECUTED, this.auditExecuted, 0);
      this.dispatcher.subscribe(ToolEvents.FAILED, this.auditFailed, 0);
    }
  }

  /**
   * True when nobody but this registry's own audit listener would see `eventName`: there is no
   * dispatcher ("no dispatcher" never means "no audit"), or the dispatcher lists exactly that
   * listener (by contract `getSubscribers` is what `dispatch` would run). The audit exit then
   * writes the record itself, with the same outcome as a dispatch and without building the event.
   */
  auditsAlone(eventName: string): boolean {
    const dispatcher = this.dispatcher;
    if (dispatcher === null) return true;
    const own = eventName === ToolEvents.EXECUTED ? this.auditExecuted : this.auditFailed;
    try {
      const subscribers = dispatcher.getSubscribers(eventName);
      return subscribers.length === 1 && subscribers[0] === own;
    } catch {
      // A dispatcher that cannot list its subscribers gets the event dispatched.
      return false;
    }
  }

  /**
   * Post-execution notification, isolated: a throwing listener (or dispatcher) can never turn a
   * settled result into a failure. `call` is what the registry's audit listener records for the
   * event, and `toolName` and `call.args` what a listener's failure text is scrubbed with.
   */
  async emit(eventName: string, event: object, toolName: string, call: AuditedCall): Promise<void> {
    const dispatcher = this.dispatcher;
    if (dispatcher === null) return;
    // Held only while the dispatch runs (by contract every listener has run when it settles), in a
    // strong Map: a WeakMap entry per call cost about 1 µs on V8, more than the rest of the pipeline.
    this.#ownEvents.set(event, call);
    try {
      const payload: EventPayload = { event };
      const pending = dispatcher.dispatch(eventName, payload);
      if (isPromiseLike(pending)) await pending;
    } catch (error) {
      const detail = this.scrub(messageOf(error), call.args, toolName);
      this.safeLog('warn', { event: eventName, error: detail }, `[ToolRegistry] ${eventName} listener failed: ${detail}`);
    } finally {
      this.#ownEvents.delete(event);
    }
  }

  /** False only when the logger says debug is off (a logger without `isLevelEnabled` gets every line). */
  isDebugEnabled(): boolean {
    return this.logger.isLevelEnabled?.('debug') !== false;
  }

  /** A debug line, built only when debug is on. */
  debug(context: Record<string, unknown>, message: string): void {
    if (this.isDebugEnabled()) this.safeLog('debug', context, message);
  }

  /** A throwing or rejecting logger must never make `call()` reject. */
  safeLog(level: 'debug' | 'info' | 'warn' | 'error', context: Record<string, unknown>, message: string): void {
    try {
      swallowRejection(this.logger[level](context, message));
    } catch {
      // Deliberately ignored: logging is best effort, the call's outcome is not.
    }
  }

  /** The input schema of the registered tool `name`, or null. */
  schemaOf(name: string): JsonSchema | null {
    return this.tools.get(name)?.definition.inputSchema ?? null;
  }

  /** The secret values of a call's arguments (by name and by the tool's schema), for scrubbing free text. */
  secretsOf(args: unknown, name: string): string[] {
    return this.audit.redactor.collectSecrets(args, this.schemaOf(name));
  }

  /**
   * Removes the call's secret values, and whatever the redactor recognises as a secret by its
   * shape, from text the runtime writes or passes on. The redactor always looks, even when the
   * arguments hold no secret field. If scrubbing fails, the whole text is redacted.
   */
  scrub(text: string, args: unknown, name: string): string {
    try {
      return this.audit.redactor.scrub(text, this.secretsOf(args, name));
    } catch {
      return REDACTED;
    }
  }

  /** The view of a call's arguments a sink may receive (see `redactForSink`), with the tool's schema. */
  redactView(args: unknown, name: string, secrets?: readonly string[]): unknown {
    return redactForSink(this.audit.redactor, args, this.schemaOf(name), secrets);
  }
}
