/** Which table section a timed row belongs to. */
export type RowGroup =
  | 'production'
  | 'suite'
  | 'mcp'
  | 'peers'
  | 'tool-count'
  | 'listener-count'
  | 'store-rate-limit'
  | 'store-idempotency'
  | 'adapters';

/**
 * What a row's batches are timed by: `cpu`, the process's CPU time (the default: every in-process
 * row is CPU-bound), or `wall`, elapsed time, for rows that wait on another process (Redis) or on
 * the disk (SQLite's fsync), where CPU time would leave out what the caller waits for.
 */
export type RowClock = 'cpu' | 'wall';

/**
 * One timed row: something that makes the same call `n` times in a loop of its own (so every row
 * keeps its own inline caches), plus a correctness check run once before any timing.
 */
export interface CallRow {
  /** Short id shown in the table (`1` … `11`, `T1000`, `L10`). */
  readonly id: string;
  /** What is measured, in a few words. */
  readonly label: string;
  /** The table section. */
  readonly group: RowGroup;
  /**
   * The id of the hand-written row this row's "× hand-written" ratio divides by: the one with the
   * same logging (row 2 writes a pino line, row 4 none). Default row 4. A store row names the
   * in-memory row of its set instead (`S1`, `I1`), timed by the same clock; an adapter row the
   * direct `registry.call()` row with the same options (`A0`, `A0k`).
   */
  readonly baseline?: string;
  /**
   * The id of a second row that a stated target measures this one against (the OpenAI Agents
   * adapter A2 against the SDK alone, 10p; a fresh idempotency key per call, A0k, against none,
   * A0): its paired ratio is printed beside the baseline's, and the target list reads it.
   */
  readonly versus?: string;
  /** What the row's batches are timed by (default `cpu`); both clocks are recorded either way. */
  readonly clock?: RowClock;
  /** Throws when one call does not produce the expected result (or an invalid call is not refused). */
  readonly check: () => Promise<void>;
  /** Makes `n` sequential calls, awaiting each. */
  readonly batch: (n: number) => Promise<void>;
}
