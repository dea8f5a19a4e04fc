import type { EventPayload, JsonSchema, Logger, LogLevel, ToolContext, TSchema, ToolResult } from '@milpa/core';
import { buildAuditRecord, type AuditRecordExtra } from './build-audit-record.js';
import { cappedSizesOf } from './capped-sizes.js';
import { describeError } from './describe-error.js';
import { boundForLog } from './bound-for-log.js';
import { redactForSink } from './redact-for-sink.js';
import { Redactor } from './redactor.js';
import { assertAuditLogger, isAuditLevelEnabled, writeAuditLine, type AuditLine } from './audit-sink.js';
import { swallowRejection } from './swallow-rejection.js';
import {
  EXTRA_OUTCOMES,
  clean,
  cleanJson,
  isExecutedEvent,
  isFailedEvent,
  principalLabel,
  timeoutLine,
  toJson,
  wholeMs,
  type ExtraOutcome,
} from './audit-line-format.js';
import type { AuditOutcome, ResultPartSizes, ToolAuditRecord } from './tool-audit-record.js';
import type { ToolAuditLoggerOptions } from './tool-audit-logger-options.js';

export type { ToolAuditLoggerOptions } from './tool-audit-logger-options.js';

/**
 * Writes the audit trail of tool calls: a human-readable `[ToolAudit] …` line as the message, and a
 * structured {@link ToolAuditRecord} as the logger context `{ audit: record }` — for every terminal
 * path, refusals, plan-mode calls, confirmation requests and unknown tools included.
 *
 * Arguments are redacted everywhere (record and `args=` text alike, keys over 100 and strings over
 * 1,000 characters cut), and free text (reasons, validation messages, codes) is scrubbed of the
 * call's secrets and of secret shapes. It never throws; a level the logger reports disabled builds nothing.
 *
 * @example
 * const audit = new ToolAuditLogger(pino(), { schemaOf: (name) => registry.getDefinition(name)?.inputSchema ?? null });
 * audit.log(context, 'create_user', { name: 'Ada', password: 'x' }, true, null, 12);
 * // info: [ToolAudit] 5f0c… | web | create_user | user:42 | 12ms | OK | args={"name":"Ada","password":"***REDACTED***"}
 */
export class ToolAuditLogger {
  /** The redactor applied to every argument and message. */
  readonly redactor: Redactor;
  readonly #logger: Logger;
  readonly #schemaOf: ((toolName: string) => JsonSchema | TSchema | null) | null;

  /** @throws MilpaError `INVALID_ARGUMENT` when `logger` lacks `info`, `warn` or `error`. */
  constructor(logger: Logger, options: ToolAuditLoggerOptions = {}) {
    assertAuditLogger(logger);
    this.#logger = logger;
    this.redactor = options.redactor ?? new Redactor();
    this.#schemaOf = options.schemaOf ?? null;
  }

  /**
   * Adds an argument name to redact (case and separators ignored, as part of a longer name too; see {@link Redactor}).
   *
   * @throws MilpaError `INVALID_ARGUMENT` for an empty name.
   */
  addSensitiveField(name: string): void {
    this.redactor.addSensitiveField(name);
  }

  /**
   * Adds a value pattern to redact from every string value and text (see {@link Redactor.addSensitivePattern}).
   *
   * @throws MilpaError `INVALID_ARGUMENT` for anything but a regular expression.
   */
  addSensitivePattern(pattern: RegExp): void {
    this.redactor.addSensitivePattern(pattern);
  }

  /**
   * The call line: `[ToolAudit] {request_id} | {channel} | {tool} | {principal} | {took}ms | OK|ERROR:{code} | args={json}`,
   * at info when `ok`, else warn.
   */
  log(
    context: ToolContext,
    tool: string,
    args: unknown,
    ok: boolean,
    errorCode: string | null,
    tookMs: number,
    outputSize: number | null = null,
  ): void {
    this.#writeCall(ok ? 'info' : 'warn', ok ? 'ok' : 'error', context, tool, args, ok ? null : (errorCode ?? 'ERROR'), tookMs, {
      output_size: outputSize,
    });
  }

  /** `[ToolAudit] AUTH_DENIED | {request_id} | {channel} | {tool} | {principal} | reason={reason}` at warn. */
  logAuthFailure(context: ToolContext, tool: string, reason: string, args: unknown = null, tookMs = 0): void {
    this.#write('warn', () => {
      const secrets = this.#secretsOf(tool, args);
      const safeReason = this.redactor.scrub(String(reason), secrets);
      return {
        message:
          `[ToolAudit] AUTH_DENIED | ${this.#head(context, tool)} | ${clean(principalLabel(context.principal))} | ` +
          `reason=${clean(safeReason)}`,
        record: this.#record('auth_denied', 'FORBIDDEN', context, tool, args, secrets, tookMs, { reason: safeReason }),
      };
    });
  }

  /** `[ToolAudit] VALIDATION_FAILED | {request_id} | {channel} | {tool} | errors={json list}` at warn. */
  logValidationFailure(context: ToolContext, tool: string, errors: readonly string[], args: unknown = null, tookMs = 0): void {
    this.#write('warn', () => {
      const secrets = this.#secretsOf(tool, args);
      const safeErrors = Object.freeze([...errors].map((error) => this.redactor.scrub(String(error), secrets)));
      return {
        message: `[ToolAudit] VALIDATION_FAILED | ${this.#head(context, tool)} | errors=${toJson(safeErrors)}`,
        record: this.#record('validation_failed', 'VALIDATION_ERROR', context, tool, args, secrets, tookMs, { errors: safeErrors }),
      };
    });
  }

  /**
   * `[ToolAudit] INVOCATION_DENIED | {request_id} | {channel} | {tool} | {principal} | rule={rule} | reason={code}`
   * at warn. The record holds the rule's identifier and reason code and no arguments: a rule
   * denial is recorded without anything the call carried.
   */
  logInvocationDenied(context: ToolContext, tool: string, rule: string | null, reason: string, tookMs: number): void {
    this.#write('warn', () => ({
      message:
        `[ToolAudit] INVOCATION_DENIED | ${this.#head(context, tool)} | ${clean(principalLabel(context.principal))} | ` +
        `rule=${clean(rule ?? '(target)')} | reason=${clean(reason)}`,
      record: this.#record('invocation_denied', 'FORBIDDEN', context, tool, null, [], tookMs, { rule, reason, run_id: context.runId }),
    }));
  }

  /** The rate-limit audit: the call line with `ERROR:RATE_LIMITED` at warn; the reason goes in the record. */
  logRateLimited(context: ToolContext, tool: string, args: unknown, reason: string, tookMs: number): void {
    this.#writeCall('warn', 'rate_limited', context, tool, args, 'RATE_LIMITED', tookMs, { reason });
  }

  /**
   * The soft-timeout warning, with the context map `{tool, execution_time, timeout_limit,
   * principal, channel, request_id}`:
   * `[ToolRuntime] Timeout exceeded | {request_id} | {channel} | {tool} | execution={s.sss}s | limit={n}s`.
   */
  logTimeout(context: ToolContext, tool: string, seconds: number, limitSeconds: number): void {
    this.#write('warn', () => timeoutLine(context, tool, this.#head(context, tool), seconds, limitSeconds));
  }

  /**
   * Audits a call that ended before or instead of its handler:
   * `[ToolAudit] {OUTCOME} | {request_id} | {channel} | {tool} | {principal}`, where `{OUTCOME}` is one of
   * `NOT_FOUND|REFUSED|PLAN|CONFIRMATION_REQUESTED|INVALID_TOKEN|VETOED|INTERNAL_ERROR`, plus ` | reason={reason}` when given.
   * `not_found`, `invalid_token` and `vetoed` are warnings, `internal_error` an error, `plan` and `confirmation_requested` info.
   * `code` overrides the outcome's default code (`TOOL_NOT_FOUND`, `VALIDATION_ERROR`, `INTERNAL_ERROR`, or none);
   * `originalSizes`, when the result cap cut the result, is recorded with `truncated`.
   */
  logOutcome(
    outcome: ExtraOutcome,
    context: ToolContext,
    tool: string,
    args: unknown,
    tookMs: number,
    reason?: string,
    code?: string | null,
    originalSizes?: ResultPartSizes,
  ): void {
    const settings = EXTRA_OUTCOMES[outcome];
    if (settings === undefined) return;
    this.#write(settings.level, () => {
      const secrets = this.#secretsOf(tool, args);
      const safeReason = reason === undefined ? undefined : this.redactor.scrub(String(reason), secrets);
      const suffix = safeReason === undefined ? '' : ` | reason=${clean(safeReason)}`;
      const rawCode = code === undefined ? settings.code : code;
      const safeCode = rawCode === null ? null : this.redactor.scrub(String(rawCode), secrets);
      return {
        message:
          `[ToolAudit] ${outcome.toUpperCase()} | ${this.#head(context, tool)} | ` + `${clean(principalLabel(context.principal))}${suffix}`,
        record: this.#record(outcome, safeCode, context, tool, args, secrets, tookMs, {
          ...(safeReason === undefined ? {} : { reason: safeReason }),
          ...(originalSizes === undefined ? {} : { truncated: true, original_sizes: originalSizes }),
        }),
      };
    });
  }

  /**
   * The `tool.executed` listener: the call line (OK, or `ERROR:{meta.code ?? result.error ?? 'ERROR'}`)
   * with `took_ms` from `result.meta.took_ms` (0 when absent), then the timeout warning when
   * `result.meta.timeout_exceeded === true`. `payload.event` is a `ToolExecutedEvent`.
   */
  onToolExecuted(_eventName: string, payload: EventPayload): void {
    try {
      const event = payload?.['event'];
      if (!isExecutedEvent(event)) return;
      this.logExecuted(event.context, event.name, event.args, event.result, event.cacheServed === true);
    } catch {
      // Audit must never disturb the call it records.
    }
  }

  /**
   * Audits an executed call from its parts, exactly as {@link ToolAuditLogger.onToolExecuted} does for
   * a `ToolExecutedEvent`; the registry calls it when no other listener would see the event.
   */
  logExecuted(context: ToolContext, tool: string, args: unknown, result: ToolResult, cacheServed: boolean): void {
    try {
      const meta = (result.meta ?? {}) as Readonly<Record<string, unknown>>;
      if (isAuditLevelEnabled(this.#logger, result.success ? 'info' : 'warn')) {
        // A capped result records the sizes the tool returned, not the cut ones.
        const sizes = cappedSizesOf(meta);
        const outputSize =
          sizes !== undefined && (sizes.data > 0 || result.data !== null)
            ? sizes.data
            : typeof result.data === 'string'
              ? result.data.length
              : null;
        // Built field by field: a spread of empty literals allocates on every call.
        const extra: { output_size: number | null; cache_served: boolean; truncated?: true; original_sizes?: ResultPartSizes } = {
          output_size: outputSize,
          cache_served: cacheServed,
        };
        if (meta['truncated'] === true) extra.truncated = true;
        if (sizes !== undefined) extra.original_sizes = sizes;
        if (result.success) {
          this.#writeCall('info', 'ok', context, tool, args, null, meta['took_ms'], extra, true);
        } else {
          const rawCode = meta['code'] ?? result.error ?? 'ERROR';
          this.#writeCall(
            'warn',
            'error',
            context,
            tool,
            args,
            String(rawCode),
            meta['took_ms'],
            {
              ...extra,
              ...(typeof result.error === 'string' ? { reason: result.error } : {}),
            },
            true,
          );
        }
      }
      if (meta['timeout_exceeded'] === true) {
        this.logTimeout(context, tool, meta['execution_time'] as number, meta['timeout_limit'] as number);
      }
    } catch {
      // Audit must never disturb the call it records.
    }
  }

  /** The `tool.failed` listener: the call line with `ERROR:EXCEPTION` and the event's `tookMs`, at warn. */
  onToolFailed(_eventName: string, payload: EventPayload): void {
    try {
      const event = payload?.['event'];
      if (!isFailedEvent(event)) return;
      this.logFailed(event.context, event.name, event.args, event.error, event.tookMs);
    } catch {
      // Audit must never disturb the call it records.
    }
  }

  /**
   * Audits a call whose handler threw, exactly as {@link ToolAuditLogger.onToolFailed} does for a
   * `ToolFailedEvent`; `originalSizes` (when the result cap cut the result) goes into the record.
   */
  logFailed(context: ToolContext, tool: string, args: unknown, error: unknown, tookMs: number, originalSizes?: ResultPartSizes): void {
    try {
      const capped = originalSizes === undefined ? {} : { truncated: true, original_sizes: originalSizes };
      this.#writeCall('warn', 'exception', context, tool, args, 'EXCEPTION', tookMs, { reason: describeError(error), ...capped });
    } catch {
      // Audit must never disturb the call it records.
    }
  }

  /**
   * The `[ToolAudit]` call line, shared by every executed, failed and rate-limited outcome: the
   * hottest path of the audit, so it builds its record in one literal, and cleans the caller-supplied
   * part of its message in one pass (the separators hold nothing to escape, so that equals cleaning
   * each part).
   */
  #writeCall(
    level: LogLevel,
    outcome: AuditOutcome,
    context: ToolContext,
    tool: string,
    args: unknown,
    code: string | null,
    tookMs: unknown,
    extra: {
      readonly output_size?: number | null;
      readonly cache_served?: boolean;
      readonly reason?: string;
      readonly truncated?: boolean;
      readonly original_sizes?: ResultPartSizes;
    },
    levelChecked = false,
  ): void {
    try {
      if (!levelChecked && !isAuditLevelEnabled(this.#logger, level)) return;
      const schema = this.#schemaFor(tool);
      const secrets = this.redactor.collectSecrets(args, schema);
      const safeCode = code === null ? null : this.redactor.scrub(code, secrets);
      const safeArgs = boundForLog(redactForSink(this.redactor, args ?? null, schema, secrets));
      const took = wholeMs(tookMs);
      const record: { -readonly [Key in keyof ToolAuditRecord]: ToolAuditRecord[Key] } = {
        outcome,
        code: safeCode,
        tool,
        request_id: context.requestId,
        channel: context.channel,
        principal: context.principal,
        ip: context.ip ?? null,
        took_ms: took,
        args: safeArgs,
        cache_served: extra.cache_served === true,
      };
      if (extra.reason !== undefined) record.reason = this.redactor.scrub(extra.reason, secrets);
      if ('output_size' in extra) record.output_size = extra.output_size ?? null;
      if (extra.truncated === true) record.truncated = true;
      if (extra.original_sizes !== undefined) record.original_sizes = extra.original_sizes;
      const status = safeCode === null ? 'OK' : `ERROR:${clean(safeCode)}`;
      // Each caller-supplied part cleaned on its own, before it is joined: the separators and the
      // duration hold nothing to escape, so this equals cleaning the joined text, without first
      // copying that text into one flat string for the test.
      const head =
        `${clean(context.requestId)} | ${clean(context.channel)} | ${clean(String(tool))} | ` +
        `${clean(principalLabel(context.principal))} | ${took}ms | ${status}`;
      const message = `[ToolAudit] ${head} | args=${cleanJson(toJson(safeArgs))}`;
      swallowRejection(this.#logger[level]({ audit: Object.freeze(record) }, message));
    } catch {
      // A failing logger (or an unreadable context) must never turn into a failed call.
    }
  }

  #record(
    outcome: AuditOutcome,
    code: string | null,
    context: ToolContext,
    tool: string,
    args: unknown,
    secrets: readonly string[],
    tookMs: unknown,
    extra: AuditRecordExtra,
  ): ToolAuditRecord {
    const safeArgs = boundForLog(redactForSink(this.redactor, args ?? null, this.#schemaFor(tool), secrets));
    return buildAuditRecord(outcome, code, context, tool, safeArgs, tookMs, extra);
  }

  #head(context: ToolContext, tool: string): string {
    return `${clean(context.requestId)} | ${clean(context.channel)} | ${clean(String(tool))}`;
  }

  #secretsOf(tool: string, args: unknown): string[] {
    return this.redactor.collectSecrets(args, this.#schemaFor(tool));
  }

  #schemaFor(tool: string): JsonSchema | TSchema | null {
    if (this.#schemaOf === null) return null;
    try {
      return this.#schemaOf(tool) ?? null;
    } catch {
      return null;
    }
  }

  /** Builds and writes one line, unless the level is disabled (see {@link writeAuditLine}). */
  #write(level: LogLevel, build: () => AuditLine): void {
    writeAuditLine(this.#logger, level, build);
  }
}
