import type { RowMeasurement } from '../harness/measure-rows.js';
import type { RegistrationMeasurement } from '../harness/measure-registration.js';
import { pairedRatio, type SampleStats } from '../harness/sample-stats.js';
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
  /** For a missed target: what meeting it would take, in this run's numbers. */
  readonly note?: string;
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

function measurementOf(measurements: readonly RowMeasurement[], id: string): RowMeasurement {
  const found = measurements.find((measurement) => measurement.row.id === id);
  if (found === undefined) throw new Error(`No measurement for row ${id}.`);
  return found;
}

function spreadText(stats: SampleStats, format: (value: number) => string): string {
  return `${format(stats.min)}–${format(stats.max)} (±${stats.spreadPercent.toFixed(1)} %)`;
}

/** A timed row's line: its median and spread, and its paired ratios against rows 1 and 2. */
function callLine(id: string, label: string, measurement: RowMeasurement, floor: RowMeasurement, handWritten: RowMeasurement): ReportLine {
  return {
    id,
    label,
    median: formatMicros(measurement.stats.median),
    spread: spreadText(measurement.stats, formatMicros),
    vsFloor: formatRatio(pairedRatio(measurement.samples, floor.samples)),
    vsHandWritten: formatRatio(pairedRatio(measurement.samples, handWritten.samples)),
  };
}

/**
 * Turns the measurements into the table and evaluates the targets of issue 6. Every ratio between
 * timed rows is a paired ratio (the median over repeats of row A's batch over row B's batch of the
 * same repeat), so the machine's slow and fast moments divide out.
 */
export function buildSuiteReport(
  environment: Environment,
  method: string,
  measurements: readonly RowMeasurement[],
  registration: RegistrationMeasurement,
): SuiteReport {
  const floor = measurementOf(measurements, '1');
  const handWritten = measurementOf(measurements, '2');
  const milpa = measurementOf(measurements, '3');
  const line = (measurement: RowMeasurement): ReportLine =>
    callLine(measurement.row.id, measurement.row.label, measurement, floor, handWritten);
  const group = (name: RowMeasurement['row']['group']): ReportLine[] =>
    measurements.filter((measurement) => measurement.row.group === name).map(line);

  const toolCount = registration.toolCount;
  const count = toolCount.toLocaleString('en-US');
  const perToolNs = (milliseconds: number): number => (milliseconds * 1e6) / toolCount;
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
          label: `register(defineTool(…)) × ${count}, total`,
          median: formatMillis(registration.totalMs.median),
          spread: spreadText(registration.totalMs, (value) => value.toFixed(1)),
          vsFloor: '—',
          vsHandWritten: '—',
        },
        {
          id: 'R/t',
          label: 'the same, per tool (µs; ratios of medians)',
          median: formatMicros(perToolNs(registration.totalMs.median)),
          spread: spreadText(registration.totalMs, (value) => formatMicros(perToolNs(value))),
          vsFloor: formatRatio(perToolNs(registration.totalMs.median) / floor.stats.median),
          vsHandWritten: formatRatio(perToolNs(registration.totalMs.median) / handWritten.stats.median),
        },
        {
          id: 'B',
          label: `building the ${count} tools' options (host code, not in R)`,
          median: formatMillis(registration.optionsMs.median),
          spread: spreadText(registration.optionsMs, (value) => value.toFixed(1)),
          vsFloor: '—',
          vsHandWritten: '—',
        },
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

  const versusHandWritten = pairedRatio(milpa.samples, handWritten.samples);
  const peers = ['6', '7', '8', '9'].map((id) => {
    const peer = measurementOf(measurements, id);
    return { id, median: peer.stats.median, speedup: pairedRatio(peer.samples, milpa.samples) };
  });
  const fastestPeer = peers.reduce((best, peer) => (peer.speedup < best.speedup ? peer : best));
  const mcp = peers.find((peer) => peer.id === '6')!;
  const peerVersusHandWritten = pairedRatio(measurementOf(measurements, fastestPeer.id).samples, handWritten.samples);
  const largest = measurements.find((measurement) => measurement.row.id === 'T10000');
  const targets: TargetVerdict[] = [
    {
      target: 'row 3 median ≤ 2× row 2 (hand-written)',
      measured: `${formatMicros(milpa.stats.median)} µs vs ${formatMicros(handWritten.stats.median)} µs: ${formatRatio(versusHandWritten)}`,
      met: versusHandWritten <= 2,
      note: `row 3 would need to be ${(((versusHandWritten - 2) / versusHandWritten) * 100).toFixed(0)} % faster`,
    },
    {
      target: 'row 3 ≥ 8× faster than the fastest peer',
      measured: `fastest peer is row ${fastestPeer.id} at ${formatMicros(fastestPeer.median)} µs: row 3 is ${formatRatio(fastestPeer.speedup)} faster`,
      met: fastestPeer.speedup >= 8,
      note:
        `row ${fastestPeer.id} costs ${formatRatio(peerVersusHandWritten)} the hand-written pipeline, so 8× faster than it means ` +
        `${formatRatio(peerVersusHandWritten / 8)} the hand-written pipeline, about ${formatMicros(fastestPeer.median / 8)} µs`,
    },
    {
      target: 'row 3 ≥ 25× faster than row 6 (MCP SDK)',
      measured: `${formatRatio(mcp.speedup)} faster`,
      met: mcp.speedup >= 25,
      note: `row 3 would need to be ${(((25 - mcp.speedup) / 25) * 100).toFixed(0)} % faster`,
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
    const change = pairedRatio(largest.samples, milpa.samples) - 1;
    targets.push({
      target: `call cost with ${count} tools within 10 % of 1 tool`,
      measured: `${formatMicros(largest.stats.median)} µs vs ${formatMicros(milpa.stats.median)} µs: ${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)} %`,
      met: change <= 0.1,
    });
  }
  return { environment, method, sections, targets };
}
