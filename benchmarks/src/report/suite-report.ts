import { measurementOf, type RowMeasurement } from '../harness/measure-rows.js';
import type { RegistrationMeasurement } from '../harness/measure-registration.js';
import { pairedRatio, type SampleStats } from '../harness/sample-stats.js';
import type { Environment } from './environment.js';
import { formatBytes, formatMicros, formatMillis, formatRatio } from './format-numbers.js';
import type { TableReport } from './report-table.js';

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
  /** Paired ratio against the hand-written pipeline with the same logging (row 2 with its pino line, row 4 without). */
  readonly vsHandWritten: string;
}

/** A section of the results table. */
export interface ReportSection {
  /** Section heading. */
  readonly title: string;
  /** Section rows. */
  readonly lines: readonly ReportLine[];
}

/** Row 5 (telemetry on, no OpenTelemetry SDK registered) against row 5t (telemetry off). */
function telemetryTarget(measurements: readonly RowMeasurement[]): TargetVerdict {
  const on = measurementOf(measurements, '5');
  const off = measurementOf(measurements, '5t');
  const ratio = pairedRatio(on.samples, off.samples);
  return {
    target: 'telemetry with no SDK registered: row 5 within 3 % of row 5t (telemetry off)',
    measured: `${formatMicros(on.stats.median)} µs vs ${formatMicros(off.stats.median)} µs: ${formatRatio(ratio)}`,
    met: ratio <= 1.03,
    note: `row 5 would need to be ${fasterBy(ratio, 1.03)}`,
  };
}

/** One target, evaluated on this run. */
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
  /** Tables after the sections: the adapters, the stores and two processes on one Redis. */
  readonly extras: readonly TableReport[];
}

function spreadText(stats: SampleStats, format: (value: number) => string): string {
  return `${format(stats.min)}–${format(stats.max)} (±${stats.spreadPercent.toFixed(1)} %)`;
}

function fasterBy(ratio: number, target: number): string {
  return `${(((ratio - target) / ratio) * 100).toFixed(0)} % faster`;
}

/** A timed row's line: its median and spread, and its paired ratios against the floor and its hand-written baseline. */
function callLine(id: string, label: string, measurement: RowMeasurement, floor: RowMeasurement, handWritten: RowMeasurement): ReportLine {
  return {
    id,
    label,
    median: formatMicros(measurement.stats.median),
    spread: spreadText(measurement.stats, formatMicros),
    vsFloor: formatRatio(pairedRatio(measurement.samples, floor.samples)),
    vsHandWritten: `${formatRatio(pairedRatio(measurement.samples, handWritten.samples))} (row ${handWritten.row.id})`,
  };
}

/** The lines of one registration measurement: total, per tool, the host's options, retained heap. */
function registrationLines(
  prefix: string,
  what: string,
  registration: RegistrationMeasurement,
  floor: RowMeasurement,
  handWritten: RowMeasurement,
): ReportLine[] {
  const count = registration.toolCount.toLocaleString('en-US');
  const perToolNs = (milliseconds: number): number => (milliseconds * 1e6) / registration.toolCount;
  const none = { vsFloor: '—', vsHandWritten: '—' };
  return [
    {
      id: prefix,
      label: `register(defineTool(…)) × ${count}, ${what}, total`,
      median: formatMillis(registration.totalMs.median),
      spread: spreadText(registration.totalMs, (value) => value.toFixed(1)),
      ...none,
    },
    {
      id: `${prefix}/t`,
      label: 'the same, per tool (µs; ratios of medians)',
      median: formatMicros(perToolNs(registration.totalMs.median)),
      spread: spreadText(registration.totalMs, (value) => formatMicros(perToolNs(value))),
      vsFloor: formatRatio(perToolNs(registration.totalMs.median) / floor.stats.median),
      vsHandWritten: `${formatRatio(perToolNs(registration.totalMs.median) / handWritten.stats.median)} (row ${handWritten.row.id})`,
    },
    {
      id: `${prefix}B`,
      label: `building the ${count} tools' options (host code, not in ${prefix})`,
      median: formatMillis(registration.optionsMs.median),
      spread: spreadText(registration.optionsMs, (value) => value.toFixed(1)),
      ...none,
    },
    {
      id: `${prefix}H`,
      label: 'retained heap per tool after GC',
      median: formatBytes(registration.heapBytesPerTool.median),
      spread: spreadText(registration.heapBytesPerTool, (value) => Math.round(value).toString()),
      ...none,
    },
    {
      id: `${prefix}O`,
      label: `of which the host's options alone (schema objects, handlers)`,
      median: formatBytes(registration.optionsBytesPerTool.median),
      spread: spreadText(registration.optionsBytesPerTool, (value) => Math.round(value).toString()),
      ...none,
    },
  ];
}

/** The registration measurements of one run. */
export interface RegistrationReport {
  /** Tools with identical shapes (distinct schema objects, so compiled validators can be shared). */
  readonly identical: RegistrationMeasurement;
  /** Tools whose schemas all differ, as generated tools' do. */
  readonly distinct: RegistrationMeasurement;
}

/**
 * Turns the measurements into the table and evaluates the targets. Every ratio between timed rows
 * is a paired ratio (the median over repeats of row A's batch over row B's batch of the same
 * repeat), so the machine's slow and fast moments divide out.
 */
export function buildSuiteReport(
  environment: Environment,
  method: string,
  measurements: readonly RowMeasurement[],
  registrations: RegistrationReport,
  extras: readonly TableReport[],
  extraTargets: readonly TargetVerdict[] = [],
): SuiteReport {
  const floor = measurementOf(measurements, '1');
  const handWrittenLogged = measurementOf(measurements, '2');
  const production = measurementOf(measurements, '3');
  const handWritten = measurementOf(measurements, '4');
  const milpa = measurementOf(measurements, '5');
  const line = (measurement: RowMeasurement): ReportLine =>
    callLine(measurement.row.id, measurement.row.label, measurement, floor, measurementOf(measurements, measurement.row.baseline ?? '4'));
  const group = (name: RowMeasurement['row']['group']): ReportLine[] =>
    measurements.filter((measurement) => measurement.row.group === name).map(line);

  const { identical, distinct } = registrations;
  const count = identical.toolCount.toLocaleString('en-US');
  const distinctCount = distinct.toolCount.toLocaleString('en-US');
  const sections: ReportSection[] = [
    { title: 'Production: pino at info to a discarding stream, on both sides (µs per call)', lines: group('production') },
    { title: 'Without a log line: audit to a silent logger, no-op hook by hand (µs per call)', lines: group('suite') },
    { title: 'Over MCP: SDK Client → in-memory transport → server, the same tool (µs per call)', lines: group('mcp') },
    { title: 'Peers, no logging (µs per call)', lines: group('peers') },
    {
      title: 'Registry size (µs per call, row 5 wiring)',
      lines: [callLine('T1', '1 tool (= row 5)', milpa, floor, handWritten), ...group('tool-count')],
    },
    {
      title: 'Listeners (µs per call, row 5 wiring plus host tool.executed listeners)',
      lines: [callLine('L0', '0 host listeners (= row 5)', milpa, floor, handWritten), ...group('listener-count')],
    },
    {
      title: `Registration of ${count} tools with identical shapes (compiled validators shared)`,
      lines: registrationLines('R', 'identical shapes', identical, floor, handWritten),
    },
    {
      title: `Registration of ${distinctCount} tools with distinct schemas`,
      lines: registrationLines('D', 'distinct schemas', distinct, floor, handWritten),
    },
  ];

  const productionRatio = pairedRatio(production.samples, handWrittenLogged.samples);
  const milpaAuditLine = production.stats.median - milpa.stats.median;
  const handWrittenLine = handWrittenLogged.stats.median - handWritten.stats.median;
  const versusHandWritten = pairedRatio(milpa.samples, handWritten.samples);
  const peers = ['7', '9', '10', '11'].map((id) => {
    const peer = measurementOf(measurements, id);
    return { id, median: peer.stats.median, speedup: pairedRatio(peer.samples, milpa.samples) };
  });
  const fastestPeer = peers.reduce((best, peer) => (peer.speedup < best.speedup ? peer : best));
  const bareMcp = peers.find((peer) => peer.id === '7')!;
  const peerVersusHandWritten = pairedRatio(measurementOf(measurements, fastestPeer.id).samples, handWritten.samples);
  const mcpRatio = (milpaId: string, bareId: string): { readonly ratio: number; readonly text: string } => {
    const milpaRow = measurementOf(measurements, milpaId);
    const bareRow = measurementOf(measurements, bareId);
    const ratio = pairedRatio(milpaRow.samples, bareRow.samples);
    return { ratio, text: `${formatMicros(milpaRow.stats.median)} µs vs ${formatMicros(bareRow.stats.median)} µs: ${formatRatio(ratio)}` };
  };
  const mcpLogged = mcpRatio('8', '7p');
  const mcpSilent = mcpRatio('8s', '7');
  const largest = measurements.find((measurement) => measurement.row.id === 'T10000');
  const targets: TargetVerdict[] = [
    {
      target: 'production: row 3 ≤ 1.5× row 2 (both log one pino line at info)',
      measured:
        `${formatMicros(production.stats.median)} µs vs ${formatMicros(handWrittenLogged.stats.median)} µs: ` +
        `${formatRatio(productionRatio)}`,
      met: productionRatio <= 1.5,
      note:
        `row 3 would need to be ${fasterBy(productionRatio, 1.5)}; ` +
        `Milpa's audit line (row 3 − row 5) costs ${formatMicros(milpaAuditLine)} µs, ` +
        `the hand-written line (row 2 − row 4) ${formatMicros(handWrittenLine)} µs`,
    },
    {
      target: 'Milpa over MCP, production: row 8 ≤ 1.15× row 7p (bare SDK McpServer; both log one pino line)',
      measured: mcpLogged.text,
      met: mcpLogged.ratio <= 1.15,
      note: `row 8 would need to be ${fasterBy(mcpLogged.ratio, 1.15)}`,
    },
    {
      target: 'Milpa over MCP, no log line: row 8s ≤ 1.15× row 7 (bare SDK McpServer)',
      measured: mcpSilent.text,
      met: mcpSilent.ratio <= 1.15,
      note: `row 8s would need to be ${fasterBy(mcpSilent.ratio, 1.15)}`,
    },
    telemetryTarget(measurements),
    {
      target: 'without a log line: row 5 ≤ 2× row 4 (hand-written)',
      measured: `${formatMicros(milpa.stats.median)} µs vs ${formatMicros(handWritten.stats.median)} µs: ${formatRatio(versusHandWritten)}`,
      met: versusHandWritten <= 2,
      note: `row 5 would need to be ${fasterBy(versusHandWritten, 2)}`,
    },
    {
      target: 'row 5 ≥ 8× faster than the fastest peer',
      measured:
        `fastest peer is row ${fastestPeer.id} at ${formatMicros(fastestPeer.median)} µs: ` +
        `row 5 is ${formatRatio(fastestPeer.speedup)} faster`,
      met: fastestPeer.speedup >= 8,
      note:
        `row ${fastestPeer.id} costs ${formatRatio(peerVersusHandWritten)} the hand-written pipeline, so 8× faster than it means ` +
        `${formatRatio(peerVersusHandWritten / 8)} the hand-written pipeline, about ${formatMicros(fastestPeer.median / 8)} µs`,
    },
    {
      target: 'row 5 ≥ 25× faster than row 7 (bare SDK McpServer)',
      measured: `${formatRatio(bareMcp.speedup)} faster`,
      met: bareMcp.speedup >= 25,
      note: `row 5 would need to be ${(((25 - bareMcp.speedup) / 25) * 100).toFixed(0)} % faster`,
    },
    {
      target: `register ${count} tools with identical shapes in < 300 ms`,
      measured: formatMillis(identical.totalMs.median),
      met: identical.totalMs.median < 300,
    },
    {
      target: 'identical shapes: retained heap ≤ 5 KB (5,000 B) per tool',
      measured: formatBytes(identical.heapBytesPerTool.median),
      met: identical.heapBytesPerTool.median <= 5000,
    },
    {
      target: `register ${distinctCount} tools with distinct schemas in < 1 s`,
      measured: formatMillis(distinct.totalMs.median),
      met: distinct.totalMs.median < 1000,
    },
    {
      target: 'distinct schemas: retained heap ≤ 2 KB (2,000 B) per tool',
      measured:
        `${formatBytes(distinct.heapBytesPerTool.median)}, ` +
        `of which ${formatBytes(distinct.optionsBytesPerTool.median)} are the host's options ` +
        `(the registry's own share: ${formatBytes(distinct.heapBytesPerTool.median - distinct.optionsBytesPerTool.median)})`,
      met: distinct.heapBytesPerTool.median <= 2000,
    },
  ];
  if (largest !== undefined) {
    const change = pairedRatio(largest.samples, milpa.samples) - 1;
    targets.push({
      target: `call cost with ${count} tools within 10 % of 1 tool`,
      measured:
        `${formatMicros(largest.stats.median)} µs vs ${formatMicros(milpa.stats.median)} µs: ` +
        `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)} %`,
      met: change <= 0.1,
    });
  }
  targets.push(...extraTargets);
  return { environment, method, sections, targets, extras };
}
