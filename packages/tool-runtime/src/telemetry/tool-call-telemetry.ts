import {
  INVALID_TRACEID,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  context as contextApi,
  createNoopMeter,
  metrics,
  trace,
  type Attributes,
  type Context,
  type Counter,
  type Histogram,
  type Meter,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { isToolErrorCode, type InvocationOutcome, type ToolResult } from '@milpa/core';
import type { PipelineCall } from '../pipeline/pipeline-call.js';
import type { RegisteredTool } from '../pipeline/registered-tool.js';
import { messageOf, nameOf } from '../pipeline/settle.js';
import { TELEMETRY_NAMES } from './telemetry-names.js';
import type { ToolTelemetryOptions } from './tool-telemetry-options.js';

const NAMES = TELEMETRY_NAMES.attributes;

/** Frozen once: starting a span builds no options object per call. */
const START_OPTIONS = Object.freeze({
  kind: SpanKind.INTERNAL,
  // Set at creation so that samplers can see it.
  attributes: Object.freeze({ [NAMES.operationName]: TELEMETRY_NAMES.operation }),
});

/** The provider a global proxy hands spans to while no SDK is registered. */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();

/** A requested name is anything a caller sent: bounded before it becomes an attribute. */
const MAX_UNKNOWN_NAME_LENGTH = 128;

/** Outcomes where the pipeline refused the call instead of running (or finishing) the handler. */
const REFUSALS: ReadonlySet<InvocationOutcome> = new Set<InvocationOutcome>([
  'not_found',
  'validation_failed',
  'auth_denied',
  'rate_limited',
  'refused',
  'invalid_token',
  'vetoed',
  'internal_error',
  'aborted',
  'approval_denied',
  'approval_pending',
  'approval_invalid',
]);

/** Seconds; tool calls range from microseconds (a refusal) to minutes (a slow handler). */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** What a finished call reports, whichever way it ended. */
interface CallReport {
  readonly toolName: string | null;
  readonly requestId: string | undefined;
  readonly channel: string | undefined;
  readonly outcome: InvocationOutcome;
  readonly cacheHit: boolean;
}

/**
 * `error.type`: the result's code when it is one of Milpa's error codes; otherwise the outcome of a
 * refusal (a veto carries no code) or `tool_error` for an error result the handler or a listener
 * returned. A code a handler or host stage made up is free text that may carry anything, an
 * argument value included, so it never becomes a span attribute or a metric label.
 */
function errorTypeOf(result: ToolResult, outcome: InvocationOutcome): string | undefined {
  if (result.success) return undefined;
  const code = result.meta['code'];
  if (isToolErrorCode(code)) return code;
  return outcome === 'executed' ? 'tool_error' : outcome;
}

/**
 * The exception event of a handler that threw: its type, and its message and stack scrubbed of the
 * call's secrets (the same text the audit log gets). Never the arguments.
 */
function exceptionAttributes(call: PipelineCall): Attributes {
  const thrown = call.thrown;
  const scrub = (text: string): string => call.scrub(text);
  const attributes: Attributes = {
    [NAMES.exceptionType]: thrown instanceof Error ? scrub(String(thrown.name)) : typeof thrown,
    [NAMES.exceptionMessage]: scrub(messageOf(thrown)),
  };
  if (thrown instanceof Error && typeof thrown.stack === 'string') attributes[NAMES.exceptionStacktrace] = scrub(thrown.stack);
  return attributes;
}

/**
 * The registry's OpenTelemetry instrumentation: one `execute_tool` span per call and the
 * `milpa.tool.calls` / `milpa.tool.duration` metrics. Every method is contained: a tracer or meter
 * that throws costs its own data, never the call. Attributes are built only for a recording span,
 * and metrics only when the meter is not the API's no-op meter.
 */
export class ToolCallTelemetry {
  readonly #tracer: Tracer;
  /**
   * The global API's proxy provider behind `#tracer`, when that is where spans go: while it has no
   * SDK to delegate to, a call skips its span entirely instead of asking the API for a no-op span.
   */
  readonly #globalProxy: ProxyTracerProvider | null;
  readonly #calls: Counter | null;
  readonly #duration: Histogram | null;

  /** The telemetry of a registry built with `option`; null when it is `false` (off). */
  static from(option: ToolTelemetryOptions | false | undefined): ToolCallTelemetry | null {
    if (option === false) return null;
    try {
      const meter = option?.meter ?? metrics.getMeter(TELEMETRY_NAMES.scope);
      if (option?.tracer !== undefined) return new ToolCallTelemetry(option.tracer, meter);
      // The global proxy's tracer follows an SDK registered after the registry was built.
      const provider = trace.getTracerProvider();
      return new ToolCallTelemetry(
        provider.getTracer(TELEMETRY_NAMES.scope),
        meter,
        provider instanceof ProxyTracerProvider ? provider : null,
      );
    } catch {
      // A provider that throws while handing out a tracer or meter leaves the registry uninstrumented.
      return null;
    }
  }

  /**
   * Uses `tracer` for spans and `meter` for the two instruments; `globalProxy` is the global API's
   * provider that `tracer` came from, if it did.
   */
  constructor(tracer: Tracer, meter: Meter, globalProxy: ProxyTracerProvider | null = null) {
    this.#tracer = tracer;
    this.#globalProxy = globalProxy;
    if (meter === createNoopMeter()) {
      this.#calls = null;
      this.#duration = null;
    } else {
      this.#calls = meter.createCounter(TELEMETRY_NAMES.metrics.calls, {
        description: 'Tool calls, by tool, outcome and channel.',
        unit: '{call}',
      });
      this.#duration = meter.createHistogram(TELEMETRY_NAMES.metrics.duration, {
        description: 'Duration of a tool call, from call() to its final result.',
        unit: 's',
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      });
    }
  }

  /** Starts the span of a call to `name`, one of `tools` or not; null when there is none to start. */
  start(name: unknown, tools: ReadonlyMap<unknown, RegisteredTool>): Span | null {
    try {
      const proxy = this.#globalProxy;
      if (proxy !== null && proxy.getDelegate() === NOOP_TRACER_PROVIDER) return null;
      const definition = tools.get(name)?.definition;
      // An unknown name stays out of the span name: span names must keep a bounded cardinality.
      const span = this.#tracer.startSpan(
        definition === undefined ? TELEMETRY_NAMES.operation : `${TELEMETRY_NAMES.operation} ${definition.name}`,
        START_OPTIONS,
      );
      if (span.isRecording()) {
        if (definition === undefined) {
          span.setAttribute(NAMES.toolName, nameOf(name).slice(0, MAX_UNKNOWN_NAME_LENGTH));
        } else {
          span.setAttribute(NAMES.toolName, definition.name);
          span.setAttribute(NAMES.toolType, 'function');
          if (definition.description !== '') span.setAttribute(NAMES.toolDescription, definition.description);
        }
      }
      return span;
    } catch {
      return null;
    }
  }

  /**
   * The context the handler runs in (the span's, so its own spans nest under it), or null when
   * there is nothing to propagate: no SDK, so the span is the API's invalid no-op span.
   */
  contextOf(span: Span): Context | null {
    try {
      if (!span.isRecording() && span.spanContext().traceId === INVALID_TRACEID) return null;
      return trace.setSpan(contextApi.active(), span);
    } catch {
      return null;
    }
  }

  /** Ends the span and records the metrics of a call that went through the pipeline. */
  finish(span: Span | null, call: PipelineCall, result: ToolResult): void {
    if (span === null && this.#calls === null) return;
    const toolName = call.entry === null ? null : call.entry.definition.name;
    const outcome = call.outcome ?? 'internal_error';
    this.#report(
      span,
      result,
      call.startedAt,
      { toolName, requestId: call.context.requestId, channel: call.context.channel, outcome, cacheHit: call.cacheServed },
      outcome === 'failed' ? call : null,
    );
  }

  /** Ends the span and records the metrics of a call refused before its context was known. */
  finishWithoutContext(span: Span | null, result: ToolResult, startedAt: number): void {
    if (span === null && this.#calls === null) return;
    this.#report(
      span,
      result,
      startedAt,
      { toolName: null, requestId: undefined, channel: undefined, outcome: 'validation_failed', cacheHit: false },
      null,
    );
  }

  #report(span: Span | null, result: ToolResult, startedAt: number, report: CallReport, failedCall: PipelineCall | null): void {
    const errorType = errorTypeOf(result, report.outcome);
    if (span !== null) {
      try {
        if (span.isRecording()) this.#describe(span, report, errorType, failedCall);
      } catch {
        // A span that fails to take its attributes is still ended below.
      }
      try {
        span.end();
      } catch {
        // Contained: telemetry never changes a call.
      }
    }
    if (this.#calls === null || this.#duration === null) return;
    try {
      const attributes: Attributes = { [NAMES.outcome]: report.outcome };
      // An unknown tool's name is whatever a caller sent: kept out of metric attributes (cardinality).
      if (report.toolName !== null) attributes[NAMES.toolName] = report.toolName;
      if (report.channel !== undefined) attributes[NAMES.channel] = report.channel;
      if (errorType !== undefined) attributes[NAMES.errorType] = errorType;
      this.#calls.add(1, attributes);
      this.#duration.record((performance.now() - startedAt) / 1000, attributes);
    } catch {
      // Contained: telemetry never changes a call.
    }
  }

  #describe(span: Span, report: CallReport, errorType: string | undefined, failedCall: PipelineCall | null): void {
    if (report.requestId !== undefined) span.setAttribute(NAMES.toolCallId, report.requestId);
    if (report.channel !== undefined) span.setAttribute(NAMES.channel, report.channel);
    span.setAttribute(NAMES.outcome, report.outcome);
    span.setAttribute(NAMES.cacheHit, report.cacheHit);
    if (errorType === undefined) return;
    span.setAttribute(NAMES.errorType, errorType);
    if (REFUSALS.has(report.outcome)) {
      span.addEvent(TELEMETRY_NAMES.events.refused, { [NAMES.errorType]: errorType, [NAMES.outcome]: report.outcome });
    }
    if (failedCall !== null) span.addEvent(TELEMETRY_NAMES.events.exception, exceptionAttributes(failedCall));
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
  }
}
