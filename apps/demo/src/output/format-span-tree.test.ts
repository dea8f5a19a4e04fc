import { SpanStatusCode, context, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { formatSpanTree } from './format-span-tree.js';

function recorder() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer('test'), spans: () => exporter.getFinishedSpans() };
}

describe('formatSpanTree', () => {
  it('nests a child under its parent, with attributes, status and events', () => {
    const { tracer, spans } = recorder();
    const parent = tracer.startSpan('execute_tool save_note', { attributes: { 'milpa.outcome': 'failed' } });
    const child = tracer.startSpan('db.insert', {}, trace.setSpan(context.active(), parent));
    child.end();
    parent.addEvent('gen_ai.execute_tool.exception', { 'exception.type': 'Error', 'exception.stacktrace': 'Error: x\n    at handler' });
    parent.setStatus({ code: SpanStatusCode.ERROR, message: 'INTERNAL_ERROR' });
    parent.end();
    const text = formatSpanTree(spans());
    expect(text).toMatch(/^trace [0-9a-f]{32}\n└─ execute_tool save_note {2}[\d.]+ ms {2}INTERNAL {2}status ERROR \(INTERNAL_ERROR\)\n/);
    expect(text).toContain('     milpa.outcome = failed\n');
    expect(text).toMatch(
      / {5}event gen_ai\.execute_tool\.exception at \+[\d.]+ ms\n {7}exception\.type = Error\n {7}exception\.stacktrace = Error: x …\n/,
    );
    expect(text).toMatch(/ {3}└─ db\.insert {2}[\d.]+ ms {2}INTERNAL {2}status UNSET\n$/);
  });

  it('prints one tree per trace', () => {
    const { tracer, spans } = recorder();
    tracer.startSpan('execute_tool a').end();
    tracer.startSpan('execute_tool b').end();
    expect(formatSpanTree(spans()).match(/^trace /gm)).toHaveLength(2);
  });

  it('says so when no span was recorded', () => {
    expect(formatSpanTree([])).toBe('trace: no spans recorded\n');
  });
});
