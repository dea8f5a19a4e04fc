/** One result of a statement, as the `pg` client gives it. */
export interface PostgresQueryResult {
  /** The rows the statement returned, each as an object keyed by column name. */
  readonly rows: readonly Record<string, unknown>[];
  /** How many rows the statement touched (or returned); null for statements that count nothing. */
  readonly rowCount: number | null;
}

/** A connection checked out of a pool: a `PoolClient` of the `pg` package fits it. */
export interface PostgresStorePoolClient {
  /** Runs one statement with `$1`-style parameters. */
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
  /** Returns the connection to its pool; with an error, the pool discards it instead. */
  release(error?: Error | boolean): void;
}

/**
 * The part of a connection pool the stores use: a `Pool` of the `pg` package fits it as it is.
 * Declared here so the published types do not depend on the client's own.
 */
export interface PostgresStorePool {
  /** Checks a connection out of the pool, for a transaction. */
  connect(): Promise<PostgresStorePoolClient>;
  /** Runs one statement on any free connection. */
  query(text: string, values?: unknown[]): Promise<PostgresQueryResult>;
}
