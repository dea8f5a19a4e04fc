/** Options of {@link formatTable}. */
export interface TableOptions {
  /** Spaces before every line; default 2. */
  readonly indent?: number;
  /** Styles the padded header line (e.g. bold); default unchanged. */
  readonly header?: (line: string) => string;
}

/**
 * Lays out rows as aligned text columns (two spaces apart), the header first. The last column is
 * not padded, so long descriptions do not leave trailing spaces. Cells must be plain text: styles
 * go on whole lines, after padding, so ANSI codes never skew the widths.
 *
 * @example
 * formatTable([['name', 'scopes'], ['list_notes', 'notes:read']]);
 * // '  name        scopes\n  list_notes  notes:read\n'
 */
export function formatTable(rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  const indent = ' '.repeat(options.indent ?? 2);
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, column) => {
      widths[column] = Math.max(widths[column] ?? 0, cell.length);
    });
  }
  return rows
    .map((row, index) => {
      const line = indent + row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ');
      return `${index === 0 && options.header !== undefined ? options.header(line) : line}\n`;
    })
    .join('');
}
