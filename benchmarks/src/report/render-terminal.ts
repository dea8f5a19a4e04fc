import { describeLoadAverage } from './environment.js';
import type { ReportLine, SuiteReport } from './suite-report.js';

const HEADERS: readonly string[] = ['#', 'row', 'median', 'spread (min–max)', '× floor', '× hand-written (same logging)'];

function cells(line: ReportLine): string[] {
  return [line.id, line.label, line.median, line.spread, line.vsFloor, line.vsHandWritten];
}

/** The report as fixed-width text for the terminal. */
export function renderTerminal(report: SuiteReport): string {
  const all = report.sections.flatMap((section) => section.lines.map(cells));
  const widths = HEADERS.map((header, column) => Math.max(header.length, ...all.map((row) => row[column]!.length)));
  const format = (row: readonly string[]): string =>
    row.map((cell, column) => (column >= 2 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  ');
  const out: string[] = [];
  const { environment } = report;
  out.push(`Milpa benchmarks — ${environment.date}`);
  out.push(`${environment.machine}, ${environment.memory}, ${environment.os}, Node ${environment.node}, commit ${environment.commit}`);
  out.push(`load average (1 min): ${describeLoadAverage(environment)}`);
  out.push(
    `clock reads: performance.now() ${environment.clockReadNs.performanceNow.toFixed(0)} ns, ` +
      `Date.now() ${environment.clockReadNs.dateNow.toFixed(0)} ns`,
  );
  out.push(report.method, '');
  for (const section of report.sections) {
    out.push(section.title);
    out.push(format(HEADERS), widths.map((width) => '-'.repeat(width)).join('  '));
    for (const line of section.lines) out.push(format(cells(line)));
    out.push('');
  }
  for (const extra of report.extras) {
    for (const table of extra.tables) {
      const tableWidths = table.headers.map((header, column) => Math.max(header.length, ...table.rows.map((row) => row[column]!.length)));
      const formatRow = (row: readonly string[]): string =>
        row.map((cell, column) => (column >= 2 ? cell.padStart(tableWidths[column]!) : cell.padEnd(tableWidths[column]!))).join('  ');
      out.push(table.title, formatRow(table.headers), tableWidths.map((width) => '-'.repeat(width)).join('  '));
      for (const row of table.rows) out.push(formatRow(row));
      out.push('');
    }
    out.push(...extra.notes, '');
  }
  out.push('Targets');
  for (const verdict of report.targets) {
    out.push(`  ${verdict.met ? 'MET   ' : 'MISSED'}  ${verdict.target}: ${verdict.measured}`);
    if (!verdict.met && verdict.note !== undefined) out.push(`          (${verdict.note})`);
  }
  return out.join('\n');
}
