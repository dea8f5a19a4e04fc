import { MilpaError } from '@milpa/core';
import { ToolError } from '../../lifecycle/tool-error.js';
import type { SqlDatabase, SqlRow } from './sql-database.js';

/** The part of a better-sqlite3 prepared statement {@link betterSqlite3Database} uses. */
export interface BetterSqlite3StatementLike {
  /** True when the statement returns rows. */
  readonly reader: boolean;
  /** True when SQLite says the statement does not write to the database. */
  readonly readonly: boolean;
  /** Steps through the rows one at a time. */
  iterate(): IterableIterator<unknown>;
}

/** The part of a better-sqlite3 `Database` {@link betterSqlite3Database} uses (no dependency on the package). */
export interface BetterSqlite3Like {
  /** True when the connection was opened with `readonly: true`. */
  readonly readonly: boolean;
  /** Compiles one statement; better-sqlite3 throws on a string of several. */
  prepare(sql: string): BetterSqlite3StatementLike;
}

/**
 * Wraps a better-sqlite3 connection as the {@link SqlDatabase} of `db_query`. Three guards beside
 * the tool's own SQL check: the connection must be opened read-only (else this throws at once),
 * the compiled statement must return rows (`stmt.reader`) and must not write (`stmt.readonly`), and
 * rows are read with `stmt.iterate()`, stopping after `maxRows` or when the call is aborted.
 * In-memory databases cannot be opened read-only in SQLite: use a file.
 *
 * @throws MilpaError `INVALID_ARGUMENT` when `db` was not opened with `readonly: true`.
 * @example
 * import Database from 'better-sqlite3';
 * const db = new Database('app.db', { readonly: true, fileMustExist: true });
 * registry.register(dbQueryTool({ database: betterSqlite3Database(db), dialect: 'sqlite' }));
 */
export function betterSqlite3Database(db: BetterSqlite3Like): SqlDatabase {
  if (db.readonly !== true) {
    throw new MilpaError('db_query needs a read-only connection: open it with new Database(file, { readonly: true }).', {
      code: 'INVALID_ARGUMENT',
    });
  }
  return {
    query(sql, { maxRows, signal }) {
      let statement: BetterSqlite3StatementLike;
      try {
        statement = db.prepare(sql);
      } catch (error) {
        throw new ToolError('QUERY_FAILED', `SQLite refused the query: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (!statement.reader) throw new ToolError('NOT_A_SELECT', 'The statement returns no rows: only SELECT queries are run.');
      if (!statement.readonly)
        throw new ToolError('NOT_A_SELECT', 'SQLite reports that the statement writes: only read-only queries are run.');
      const rows: SqlRow[] = [];
      const iterator = statement.iterate();
      try {
        for (let step = iterator.next(); step.done !== true; step = iterator.next()) {
          signal.throwIfAborted();
          rows.push(step.value as SqlRow);
          if (rows.length >= maxRows) break;
        }
      } finally {
        // Finishes the statement so the connection is free for the next query.
        iterator.return?.();
      }
      return rows;
    },
  };
}
