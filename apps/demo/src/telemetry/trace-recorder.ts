import type { ToolTelemetryOptions } from '@milpa/tool-runtime';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

/** Spans kept in memory for `call --trace`, from an OpenTelemetry SDK of the demo's own. */
export interface TraceRecorder {
  /** The registry option that sends the spans here (spans only: metrics are not shown). */
  readonly telemetry: ToolTelemetryOptions;
  /** Every span that has ended, in the order they ended. */
  readonly spans: () => readonly ReadableSpan[];
  /** Stops the provider. */
  readonly shutdown: () => Promise<void>;
}

/**
 * An in-memory tracer for one CLI run: nothing is exported anywhere, and nothing is registered
 * globally, so only the registry given {@link TraceRecorder.telemetry} is traced.
 *
 * @example
 * const recorder = createTraceRecorder();
 * const demo = await createDemoRuntime({ telemetry: recorder.telemetry });
 * await demo.registry.call('list_notes', {}, ToolContext.cli());
 * process.stdout.write(formatSpanTree(recorder.spans()));
 */
export function createTraceRecorder(): TraceRecorder {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return {
    telemetry: { tracer: provider.getTracer('@milpa/demo') },
    spans: () => exporter.getFinishedSpans(),
    shutdown: () => provider.shutdown(),
  };
}
