import { SpanKind, SpanStatusCode, type AttributeValue, type Attributes, type HrTime } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

function milliseconds(time: HrTime): number {
  return time[0] * 1000 + time[1] / 1e6;
}

function formatMs(value: number): string {
  return `${value.toFixed(value < 10 ? 2 : 1)} ms`;
}

function formatValue(value: AttributeValue | undefined): string {
  if (Array.isArray(value)) return `[${value.map((item) => String(item)).join(', ')}]`;
  return String(value);
}

/** `key = value` lines, in the order the attributes were set; a multi-line value keeps its first line. */
function attributeLines(attributes: Attributes, indent: string): string {
  return Object.entries(attributes)
    .map(([key, value]) => {
      const [first = '', ...rest] = formatValue(value).split('\n');
      return `${indent}${key} = ${first}${rest.length > 0 ? ' …' : ''}\n`;
    })
    .join('');
}

function statusText(span: ReadableSpan): string {
  const name = SpanStatusCode[span.status.code] ?? String(span.status.code);
  return span.status.message === undefined || span.status.message === '' ? name : `${name} (${span.status.message})`;
}

function formatSpan(span: ReadableSpan, children: ReadonlyMap<string, ReadableSpan[]>, prefix: string, last: boolean): string {
  const branch = last ? '└─ ' : '├─ ';
  const inner = `${prefix}${last ? '   ' : '│  '}`;
  const kind = SpanKind[span.kind] ?? String(span.kind);
  let output = `${prefix}${branch}${span.name}  ${formatMs(milliseconds(span.duration))}  ${kind}  status ${statusText(span)}\n`;
  output += attributeLines(span.attributes, `${inner}  `);
  const start = milliseconds(span.startTime);
  for (const event of span.events) {
    output += `${inner}  event ${event.name} at +${formatMs(milliseconds(event.time) - start)}\n`;
    output += attributeLines(event.attributes ?? {}, `${inner}    `);
  }
  const nested = children.get(span.spanContext().spanId) ?? [];
  nested.forEach((child, index) => {
    output += formatSpan(child, children, inner, index === nested.length - 1);
  });
  return output;
}

/**
 * Spans as a readable tree, one per trace: each span's name, duration, kind and status, its
 * attributes, its events (with their time from the span's start), and the spans nested under it.
 * A span whose parent is not among `spans` is a root.
 *
 * @example
 * process.stdout.write(formatSpanTree(exporter.getFinishedSpans()));
 */
export function formatSpanTree(spans: readonly ReadableSpan[]): string {
  if (spans.length === 0) return 'trace: no spans recorded\n';
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const ordered = [...spans].sort((a, b) => milliseconds(a.startTime) - milliseconds(b.startTime));
  const children = new Map<string, ReadableSpan[]>();
  const roots: ReadableSpan[] = [];
  for (const span of ordered) {
    const parent = span.parentSpanContext?.spanId;
    if (parent === undefined || !ids.has(parent)) {
      roots.push(span);
      continue;
    }
    const siblings = children.get(parent) ?? [];
    siblings.push(span);
    children.set(parent, siblings);
  }
  return roots.map((root) => `trace ${root.spanContext().traceId}\n${formatSpan(root, children, '', true)}`).join('\n');
}
