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
    /** Always `execute_tool`; set when the span starts, so samplers see it. */
    operationName: 'gen_ai.operation.name',
    /** The tool's name (for an unknown tool, the requested name, cut to 128 characters). */
    toolName: 'gen_ai.tool.name',
    /** The call's request id (`context.requestId`). */
    toolCallId: 'gen_ai.tool.call.id',
    /** Always `function`. */
    toolType: 'gen_ai.tool.type',
    /** The tool's description. */
    toolDescription: 'gen_ai.tool.description',
    /** On a refusal or failure: the result's `meta.code` (else the outcome, or `tool_error`). */
    errorType: 'error.type',
    /** The caller's channel (`cli`, `mcp`, `web`, …). */
    channel: 'milpa.channel',
    /** How the pipeline ended the call (`executed`, `rate_limited`, `vetoed`, …). */
    outcome: 'milpa.outcome',
    /** True when a `tool.executing` listener answered instead of the handler. */
    cacheHit: 'milpa.cache.hit',
    /** Exception event: the thrown value's class name (or its `typeof`). */
    exceptionType: 'exception.type',
    /** Exception event: the message, scrubbed of the call's secrets. */
    exceptionMessage: 'exception.message',
    /** Exception event: the stack, scrubbed of the call's secrets. */
    exceptionStacktrace: 'exception.stacktrace',
  }),
} as const);
