import { measurementOf, type RowMeasurement } from '../harness/measure-rows.js';
import { pairedRatio } from '../harness/sample-stats.js';
import { formatMicros, formatRatio } from './format-numbers.js';
import type { TableReport } from './report-table.js';
import { spread } from './store-report.js';

const HEADERS: readonly string[] = ['#', 'row', 'median µs/call', 'spread (min–max)', '× direct registry.call (same options)', '× floor'];

/**
 * The adapter table: each framework tool built by a Milpa adapter, called directly, against a
 * direct `registry.call()` with the same wiring and call options, by paired ratios of CPU time.
 */
export function buildAdapterReport(measurements: readonly RowMeasurement[]): TableReport {
  const floor = measurementOf(measurements, '1');
  const rows = measurements
    .filter((measurement) => measurement.row.group === 'adapters')
    .map((measurement) => {
      const direct = measurementOf(measurements, measurement.row.baseline ?? measurement.row.id);
      return [
        measurement.row.id,
        measurement.row.label,
        formatMicros(measurement.stats.median),
        spread(measurement.stats, formatMicros),
        `${formatRatio(pairedRatio(measurement.samples, direct.samples))} (row ${direct.row.id})`,
        formatRatio(pairedRatio(measurement.samples, floor.samples)),
      ];
    });
  return {
    tables: [
      {
        title: "Adapters: the framework's tool object, called directly, over a direct registry.call (µs per call)",
        headers: HEADERS,
        rows,
      },
    ],
    notes: [
      `Adapter rows A1–A3t make row 3's call (pino at info to a discarding stream, audit on, dispatcher; a registry per row) through the ` +
        `tool object each Milpa adapter builds for the caller's context, called as the framework's runner calls it, without a model: ` +
        `A1 the AI SDK tool's \`execute(args, { toolCallId, messages: [] })\` from \`aiSdkTools(registry, { context })\`; A2 ` +
        `\`invokeFunctionTool()\` of \`@openai/agents\` on the tool from \`toAgentsTools(registry, context)\`, with the model's JSON ` +
        'arguments and a function-call item carrying the call id; ' +
        `A3 \`MilpaToolkit.getTools(context)\`'s tool \`.invoke(args)\`, and A3t ` +
        `\`.invoke(toolCall)\` with a tool call id, as LangGraph's ToolNode calls it, which the adapter passes on as the call's ` +
        `idempotency key. Every call has a fresh tool call id. Each row is checked for the result, one audit line and Milpa's refusal ` +
        `of invalid arguments in the framework's answer. A0 is \`registry.call(name, args, context)\` on the same wiring with one reused ` +
        `context; A0k adds a fresh idempotency key per call (the baseline of A3t). CPU time; ratios paired, as for the other rows.`,
    ],
  };
}
