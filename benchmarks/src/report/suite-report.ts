import type { RowMeasurement } from '../harness/measure-rows.js';
import type { RegistrationMeasurement } from '../harness/measure-registration.js';
import type { SampleStats } from '../harness/sample-stats.js';
import type { Environment } from './environment.js';
import { formatBytes, formatMicros, formatMillis, formatRatio } from './format-numbers.js';

/** One line of the results table. */
export interface ReportLine {
  /** Table id. */
  readonly id: string;
  /** What was measured. */
  readonly label: string;
  /** Median as text (with its unit when it is not µs per call). */
  readonly median: string;
  /** Min–max of the repeats as text, and the half-range in percent. */
  readonly spread: string;
  /** Ratio of the median against the floor (row 1). */
  readonly vsFloor: string;
  /** Ratio of the median against the hand-written pipeline (row 2). */
  readonly vsHandWritten: string;
}

/** A section of the results table. */
export interface ReportSection {
  /** Section heading. */
  readonly title: string;
  /** Section rows. */
  readonly lines: readonly ReportLine[];
}

/** One target of issue 6, evaluated on this run. */
export interface TargetVerdict {
  /** The target as stated. */
  readonly target: string;
  /** What this run measured. */
  readonly measured: string;
  /** Whether the target is met. */
  readonly met: boolean;
}

/** Everything the terminal table and `docs/benchmarks.md` show. */
export interface SuiteReport {
  /** Machine, runtime, versions, date. */
  readonly environment: Environment;
  /** How the rows were measured. */
  readonly method: string;
  /** The table. */
  readonly sections: readonly ReportSection[];
  /** The targets and whether this run meets them. */
  readonly targets: readonly TargetVerdict[];
}

function statsOf(measurements: readonly RowMeasurement[], id: string): SampleStats {
  const found = measurements.find((measurement) => measurement.row.id === id);
  if (found === undefined) throw new Error(`No measurement for row ${id}.`);
  return found.stats;
}

function spreadText(stats: SampleStats, format: (value: number) => string): string {
  return `${format(stats.min)}–${format(stats.max)} (±${stats.spreadPercent.toFixed(1)} %)`;
}

function callLine(id: string, label: string, stats: SampleStats, floor: number, handWritten: number): ReportLine {
  return {
    id,
    label,
    median: formatMicros(stats.median),
    spread: spreadText(stats, formatMicros),
    vsFloor: formatRatio(stats.median / floor),
    vsHandWritten: formatRatio(stats.median / handWritten),
  };
}

/**
 * Turns the measurements into the table and evaluates the targets of issue 6, all as ratios of
 * medians from this one run.
 */
export function buildSuiteReport(
  environment: Environment,
  method: string,
  measurements: readonly RowMeasurement[],
  registration: RegistrationMeasurement,
): SuiteReport {
  const floor = statsOf(measurements, '1').median;
  const handWritten = statsOf(measurements, '2').median;
  const milpa = statsOf(measurements, '3');
  const line = (measurement: RowMeasurement): ReportLine =>
    callLine(measurement.row.id, measurement.row.label, measurement.stats, floor, handWritten);
  const group = (name: RowMeasurement['row']['group']): ReportLine[] =>
    measurements.filter((measurement) => measurement.row.group === name).map(line);

  const perToolNs: SampleStats = {
    ...registration.totalMs,
    median: (registration.totalMs.median * 1e6) / registration.toolCount,
    min: (registration.totalMs.min * 1e6) / registration.toolCount,
    max: (registration.totalMs.max * 1e6) / registration.toolCount,
  };
  const count = registration.toolCount.toLocaleString('en-US');
  const sections: ReportSection[] = [
    { title: 'Call cost (µs per call)', lines: group('suite') },
    {
      title: 'Registry size (µs per call, row 3 wiring)',
      lines: [callLine('T1', '1 tool (= row 3)', milpa, floor, handWritten), ...group('tool-count')],
    },
    {
      title: 'Listeners (µs per call, row 3 wiring plus host tool.executed listeners)',
      lines: [callLine('L0', '0 host listeners (= row 3)', milpa, floor, handWritten), ...group('listener-count')],
    },
    {
      title: `Registration of ${count} tools`,
      lines: [
        {
          id: 'R',
          label: `register ${count} tools, total`,
          median: formatMillis(registration.totalMs.median),
          spread: spreadText(registration.totalMs, (value) => value.toFixed(1)),
          vsFloor: '—',
          vsHandWritten: '—',
        },
        callLine('R/t', 'register, per tool (µs)', perToolNs, floor, handWritten),
        {
          id: 'H',
          label: 'retained heap per tool after GC',
          median: formatBytes(registration.heapBytesPerTool.median),
          spread: spreadText(registration.heapBytesPerTool, (value) => Math.round(value).toString()),
          vsFloor: '—',
          vsHandWritten: '—',
        },
      ],
    },
  ];

  const peers = ['6', '7', '8', '9'].map((id) => ({ id, median: statsOf(measurements, id).median }));
  const fastestPeer = peers.reduce((best, peer) => (peer.median < best.median ? peer : best));
  const mcp = statsOf(measurements, '6').median;
  const largest = measurements.find((measurement) => measurement.row.id === 'T10000');
  const targets: TargetVerdict[] = [
    {
      target: 'row 3 median ≤ 2× row 2 (hand-written)',
      measured: `${formatMicros(milpa.median)} µs vs ${formatMicros(handWritten)} µs = ${formatRatio(milpa.median / handWritten)}`,
      met: milpa.median <= 2 * handWritten,
    },
    {
      target: 'row 3 ≥ 8× faster than the fastest peer',
      measured: `fastest peer is row ${fastestPeer.id} at ${formatMicros(fastestPeer.median)} µs: ${formatRatio(fastestPeer.median / milpa.median)} faster`,
      met: fastestPeer.median >= 8 * milpa.median,
    },
    {
      target: 'row 3 ≥ 25× faster than row 6 (MCP SDK)',
      measured: `${formatRatio(mcp / milpa.median)} faster`,
      met: mcp >= 25 * milpa.median,
    },
    {
      target: `register ${count} tools in < 300 ms`,
      measured: formatMillis(registration.totalMs.median),
      met: registration.totalMs.median < 300,
    },
    {
      target: 'retained heap ≤ 5 KB (5,000 B) per tool',
      measured: formatBytes(registration.heapBytesPerTool.median),
      met: registration.heapBytesPerTool.median <= 5000,
    },
  ];
  if (largest !== undefined) {
    const change = largest.stats.median / milpa.median - 1;
    targets.push({
      target: `call cost with ${count} tools within 10 % of 1 tool`,
      measured: `${formatMicros(largest.stats.median)} µs vs ${formatMicros(milpa.median)} µs (${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)} %)`,
      met: change <= 0.1,
    });
  }
  return { environment, method, sections, targets };
}
