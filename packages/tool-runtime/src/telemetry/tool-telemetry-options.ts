import type { Meter, Tracer } from '@opentelemetry/api';

/**
 * Where a `ToolRegistry` sends its spans and metrics. Either part left out falls back to the global
 * OpenTelemetry API (`trace.getTracer('@milpa/tool-runtime')`, `metrics.getMeter(...)`): without a
 * registered SDK both are no-ops and a call costs next to nothing more.
 *
 * @example
 * new ToolRegistry({ telemetry: { tracer: provider.getTracer('my-app'), meter } });
 */
export interface ToolTelemetryOptions {
  /**
   * The tracer of the `execute_tool` spans. Default: the global API's tracer, which follows an SDK
   * registered later.
   */
  readonly tracer?: Tracer;
  /**
   * The meter of `milpa.tool.calls` and `milpa.tool.duration`. Default: the global API's meter,
   * taken when the registry is built (register a global `MeterProvider` before building it).
   */
  readonly meter?: Meter;
}
