import type { Attributes } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type Histogram,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { ToolTelemetryOptions } from '../../src/telemetry/tool-telemetry-options.js';

/** One metric point: its attributes and value (a count, or a histogram's count and sum). */
export interface MetricPoint {
  readonly attributes: Attributes;
  readonly value: number | Histogram;
}

/**
 * An OpenTelemetry SDK of its own for one test: spans and metrics kept in memory, handed to a
 * registry through its `telemetry` option (no global registration, nothing leaks between tests).
 */
export class InMemoryTelemetry {
  readonly spanExporter = new InMemorySpanExporter();
  readonly tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(this.spanExporter)] });
  readonly metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exported only on forceFlush: the interval never elapses within a test.
  readonly metricReader = new PeriodicExportingMetricReader({
    exporter: this.metricExporter,
    exportIntervalMillis: 3_600_000,
    exportTimeoutMillis: 1_000,
  });
  readonly meterProvider = new MeterProvider({ readers: [this.metricReader] });

  /** The registry option that sends spans and metrics here. */
  get options(): ToolTelemetryOptions {
    return { tracer: this.tracerProvider.getTracer('test'), meter: this.meterProvider.getMeter('test') };
  }

  /** Every finished span, in the order they ended. */
  spans(): readonly ReadableSpan[] {
    return this.spanExporter.getFinishedSpans();
  }

  /** The points of metric `name` collected so far. */
  async points(name: string): Promise<readonly MetricPoint[]> {
    await this.metricReader.forceFlush();
    const batches = this.metricExporter.getMetrics();
    const latest = batches[batches.length - 1];
    const metrics: MetricData[] = latest?.scopeMetrics.flatMap((scope) => scope.metrics) ?? [];
    const metric = metrics.find((candidate) => candidate.descriptor.name === name);
    return (metric?.dataPoints ?? []).map((point: DataPoint<unknown>) => ({
      attributes: point.attributes,
      value: point.value as number | Histogram,
    }));
  }

  /** Stops both providers. */
  async shutdown(): Promise<void> {
    await Promise.all([this.tracerProvider.shutdown(), this.meterProvider.shutdown()]);
  }
}
