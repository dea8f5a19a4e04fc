import { measurementOf, type RowMeasurement } from '../harness/measure-rows.js';
import { pairedRatio } from '../harness/sample-stats.js';
import { formatMicros, formatRatio } from './format-numbers.js';
import type { TableReport } from './report-table.js';
import { spread } from './store-report.js';
import type { TargetVerdict } from './suite-report.js';

const HEADERS: readonly string[] = [
  '#',
  'row',
  'median µs/call',
  'spread (min–max)',
  '× direct registry.call (same options)',
  '× its target row',
  '× floor',
];

/** A cost target between two adapter rows: `row` ≤ `limit` × `versus`, by paired ratio. */
interface CostTarget {
  readonly row: string;
  readonly versus: string;
  readonly limit: number;
  readonly target: string;
}

const COST_TARGETS: readonly CostTarget[] = [
  {
    row: 'A2',
    versus: '10p',
    limit: 2,
    target: "OpenAI Agents adapter: row A2 ≤ 2× row 10p (the SDK's own tool through invokeFunctionTool; both log one pino line)",
  },
  {
    row: 'A0k',
    versus: 'A0',
    limit: 1.3,
    target: 'a fresh idempotency key per call (in-memory store): row A0k ≤ 1.3× row A0 (no key; both log one audit line)',
  },
];

/**
 * The adapter rows' cost targets that this run measured both rows of (a quick run may time only
 * some rows): the OpenAI Agents adapter against the SDK alone, and a fresh idempotency key per
 * call against none.
 */
export function buildAdapterTargets(measurements: readonly RowMeasurement[]): TargetVerdict[] {
  const measured = (id: string): RowMeasurement | undefined => measurements.find((measurement) => measurement.row.id === id);
  return COST_TARGETS.flatMap((cost) => {
    const row = measured(cost.row);
    const versus = measured(cost.versus);
    if (row === undefined || versus === undefined) return [];
    const ratio = pairedRatio(row.samples, versus.samples);
    return [
      {
        target: cost.target,
        measured: `${formatMicros(row.stats.median)} µs vs ${formatMicros(versus.stats.median)} µs: ${formatRatio(ratio)}`,
        met: ratio <= cost.limit,
        note: `row ${cost.row} would need to be ${(((ratio - cost.limit) / ratio) * 100).toFixed(0)} % faster`,
      },
    ];
  });
}

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
        measurement.row.versus === undefined
          ? '—'
          : `${formatRatio(pairedRatio(measurement.samples, measurementOf(measurements, measurement.row.versus).samples))} ` +
            `(row ${measurement.row.versus})`,
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
        `context; A0k adds a fresh idempotency key per call (the baseline of A3t), kept by the registry's default in-memory store. ` +
        `Row 10p is the OpenAI Agents SDK alone: a plain \`tool()\` with row 10's zod schema whose \`execute\` writes row 2's ` +
        `pino line, called through \`invokeFunctionTool()\` with the same JSON arguments and function-call item as A2. ` +
        `"× its target row" divides A2 by 10p and A0k by A0, the two targets below. CPU time; ratios paired, as for the other rows.`,
    ],
  };
}
