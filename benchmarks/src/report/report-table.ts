/** A table with headers of its own: a title and rows of cells, one per header. */
export interface ReportTable {
  /** Section heading. */
  readonly title: string;
  /** Column headers; every column from the third on is right-aligned. */
  readonly headers: readonly string[];
  /** The rows' cells, one per header. */
  readonly rows: readonly (readonly string[])[];
}

/** Tables that follow the suite's sections, and the sentences that explain them. */
export interface TableReport {
  /** The tables, in order. */
  readonly tables: readonly ReportTable[];
  /** Sentences under the tables: how they were measured and what was proved. */
  readonly notes: readonly string[];
}
