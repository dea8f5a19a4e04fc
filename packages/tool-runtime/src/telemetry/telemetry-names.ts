/**
 * The names Milpa's OpenTelemetry instrumentation uses: the instrumentation scope, the span name
 * prefix, the metrics, the span events and the attributes. The `gen_ai.*` and `error.type` keys
 * follow the GenAI semantic conventions for tool execution (status: development); the `milpa.*`
 * keys are Milpa's own, since no convention covers governance decisions.
 *
 * @example
 * exporter.getFinishedSpans().filter((span) => span.attributes[TELEMETRY_NAMES.attributes.outcome] === 'rate_limited');
 */
export const TELEMETRY_NAMES = Object.freeze({
  /** The tracer's and meter's instrumentation scope name. */
  scope: '@milpa/tool-runtime',
  /** The operation: the span name is `execute_tool <tool name>` (plain `execute_tool` for an unknown tool). */
  operation: 'execute_tool',
  /** Metric names. */
  metrics: Object.freeze({
    /** Counter of calls, one per call whatever its outcome. */
    calls: 'milpa.tool.calls',
    /** Histogram of a call's duration in seconds, from `call()` to its final result. */
    duration: 'milpa.tool.duration',
  }),
  /** Span event names. */
  events: Object.freeze({
    /** The pipeline refused the call before (or instead of) running the handler. */
    refused: 'milpa.refused',
    /** The handler threw or rejected. */
    exception: 'gen_ai.execute_tool.exception',
  }),
  /** Attribute keys. */
  attributes: Object.freeze({
    operationName: 'gen_ai.operation.name',
    toolName: 'gen_ai.tool.name',
    toolCallId: 'gen_ai.tool.call.id',
    toolType: 'gen_ai.tool.type',
    toolDescription: 'gen_ai.tool.description',
    errorType: 'error.type',
    channel: 'milpa.channel',
    outcome: 'milpa.outcome',
    cacheHit: 'milpa.cache.hit',
    exceptionType: 'exception.type',
    exceptionMessage: 'exception.message',
    exceptionStacktrace: 'exception.stacktrace',
  }),
} as const);
