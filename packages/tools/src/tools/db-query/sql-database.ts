/** One row of a query result: column name to value. */
export type SqlRow = Readonly<Record<string, unknown>>;

/** What `db_query` passes to {@link SqlDatabase.query}. */
export interface SqlQueryOptions {
  /** The most rows to return; the tool asks for one more than it shows, to know whether rows were left out. */
  readonly maxRows: number;
  /**
   * The most bytes the rows may take (text as UTF-8, blobs raw, 8 per other value, plus column
   * names): stop reading and throw once they take more. Undefined leaves the budget to the driver.
   */
  readonly maxBytes?: number;
  /** Aborted when the statement timeout passes or the caller gives up: stop the query and throw. */
  readonly signal: AbortSignal;
}

/**
 * The database behind `db_query`, as a small driver interface so `@milpa/tools` depends on no
 * database client. An implementation runs exactly one statement (never enable a driver's
 * multi-statement mode), off the host's event loop (a synchronous driver blocks every other call:
 * run it in a child process, as `betterSqlite3Database` does), over a **read-only** connection or
 * transaction (SQLite opened with `readonly: true`, a PostgreSQL role with only `SELECT` grants or
 * `SET TRANSACTION READ ONLY`, a MySQL user with only `SELECT`); it stops reading after `maxRows`
 * rows or `maxBytes` bytes, and stops the query when `signal` aborts (the statement timeout
 * included). The tool's SQL check is syntactic; the read-only connection is what holds when a
 * check is wrong. See `betterSqlite3Database` for SQLite.
 *
 * @example
 * const database: SqlDatabase = {
 *   async query(sql, { maxRows, signal }) {
 *     const client = await pool.connect();
 *     try {
 *       await client.query('BEGIN TRANSACTION READ ONLY');
 *       const result = await client.query({ text: sql, rowMode: 'object' });
 *       signal.throwIfAborted();
 *       return result.rows.slice(0, maxRows);
 *     } finally {
 *       await client.query('ROLLBACK');
 *       client.release();
 *     }
 *   },
 * };
 */
export interface SqlDatabase {
  /** Runs one read-only query and returns at most `options.maxRows` rows. Throws when the database refuses it. */
  query(sql: string, options: SqlQueryOptions): Promise<readonly SqlRow[]> | readonly SqlRow[];
}
