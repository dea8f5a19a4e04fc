import { MilpaError, Type, type ToolDefinition, type ToolResult } from '@milpa/core';
import { rejectUnknownArguments } from '../../lifecycle/argument-checks.js';
import { defineLifecycleTool } from '../../lifecycle/define-lifecycle-tool.js';
import { failure, success } from '../../lifecycle/tool-envelope.js';
import { ToolError } from '../../lifecycle/tool-error.js';
import { SQL_MAX_LENGTH, checkSqlQuery } from './check-sql-query.js';
import { type SqlAllowlist, validateSqlAllowlist } from './sql-allowlist.js';
import type { SqlDatabase, SqlRow } from './sql-database.js';
import { SQL_DIALECTS, type SqlDialect } from './sql-dialect.js';
import { SQL_SECRET_NAME_PARTS } from './sql-refusal-lists.js';
import { writeJsonLinesSpill } from './write-json-lines-spill.js';

/** The most rows `db_query` returns. */
export const DB_QUERY_MAX_ROWS = 100;

/** The most bytes of JSON rows `db_query` returns inline; larger results spill to a JSON Lines file. */
export const DB_QUERY_MAX_BYTES = 8192;

/** How long a query may run before it is stopped, by default: 5 seconds. */
export const DB_QUERY_TIMEOUT_MS = 5000;

/** The most bytes a query's rows may take while they are read, by default (1 MiB); past it the query stops. */
export const DB_QUERY_MAX_RESULT_BYTES = 1024 * 1024;

/** Options of {@link dbQueryTool}. */
export interface DbQueryToolOptions {
  /** The database to query, over a read-only connection (see `SqlDatabase`). */
  readonly database: SqlDatabase;
  /** The SQL dialect the database speaks, for the parser. */
  readonly dialect: SqlDialect;
  /** Where spill files are written; default a new private folder under the OS temp folder per spill. */
  readonly spillDirectory?: string;
  /** Scopes of which the caller needs one; default `['db:read']`. */
  readonly scopes?: readonly string[];
  /** The tables and columns the model may query, appended to the description: it cannot read the system catalogs. */
  readonly schemaSummary?: string;
  /**
   * The tables and columns the model may read, the safe default: `{ users: ['id', 'name'], orders: '*' }`.
   * Any other table or column, anywhere in the query (`WHERE` and `JOIN … ON` included), is refused,
   * and `*` expands only over tables allowed with `'*'`. Without it, only names that look like
   * secrets are refused, which cannot see what a column holds.
   */
  readonly allow?: SqlAllowlist;
  /** How long a query may run, in milliseconds, before it is stopped (`QUERY_TIMEOUT`); default {@link DB_QUERY_TIMEOUT_MS}. */
  readonly timeoutMs?: number;
  /**
   * The most bytes the rows may take while read, before the query is stopped (`RESULT_TOO_LARGE`);
   * default {@link DB_QUERY_MAX_RESULT_BYTES}.
   */
  readonly maxResultBytes?: number;
}

/** The data of a successful `db_query` call. */
export interface DbQueryData {
  /** The column names, in the order of the first row. */
  readonly columns: readonly string[];
  /** The rows: all of them, or a preview when they exceed {@link DB_QUERY_MAX_BYTES}. */
  readonly rows: readonly SqlRow[];
  /** How many rows the query returned (at most {@link DB_QUERY_MAX_ROWS}). */
  readonly row_count: number;
  /** True when the query had more rows than {@link DB_QUERY_MAX_ROWS}. */
  readonly truncated: boolean;
  /** The JSON Lines file holding every returned row, when `rows` is only a preview. */
  readonly spill_path?: string;
}

const SECRET_PARTS = SQL_SECRET_NAME_PARTS;
const REDACTED = '[redacted]';

/**
 * The `db_query` tool: runs one read-only `SELECT` (with `UNION` and `WITH … SELECT`) and returns
 * the rows as JSON. The SQL is checked by a real parser before it runs (see `checkSqlQuery`), then
 * run through `database` with a row cap of {@link DB_QUERY_MAX_ROWS} (one more is asked for, to
 * report `truncated`). Rows over {@link DB_QUERY_MAX_BYTES} bytes of JSON come back as a preview
 * plus `spill_path`, a JSON Lines file (mode 0600) with every returned row. Values of result
 * columns whose names mark secrets (`SELECT *` over a `password` column) are replaced by
 * `[redacted]`. Not mutating; scopes `['db:read']` unless given.
 *
 * Queries are stopped after `timeoutMs` (default 5 s, `QUERY_TIMEOUT`) or once their rows take
 * more than `maxResultBytes` (`RESULT_TOO_LARGE`). With `allow`, the safe default, only the listed
 * tables and columns may be used (see `checkSqlQuery`).
 *
 * Codes: those of `checkSqlQuery` (`SQL_COMMENT`, `MULTIPLE_STATEMENTS`, `SQL_PARSE_ERROR`,
 * `NOT_A_SELECT`, `SELECT_INTO`, `LOCKING_CLAUSE`, `FORBIDDEN_FUNCTION`, `UNBOUNDED_QUERY`,
 * `SYSTEM_CATALOG`, `TABLE_NOT_ALLOWED`, `COLUMN_NOT_ALLOWED`, `SECRET_NAME`, `INVALID_SQL`),
 * `UNKNOWN_ARGUMENT`, `QUERY_TIMEOUT`, `RESULT_TOO_LARGE`, and `QUERY_FAILED` when the database refuses.
 *
 * @throws MilpaError `INVALID_ARGUMENT` when `database` has no `query` function, `dialect` is unknown,
 * `timeoutMs` or `maxResultBytes` is not a positive integer, or `allow` is malformed.
 * @example
 * const database = betterSqlite3Database('shop.db');
 * registry.register(dbQueryTool({ database, dialect: 'sqlite', allow: { orders: ['id', 'customer', 'total', 'placed_at'] } }));
 */
export function dbQueryTool(options: DbQueryToolOptions): ToolDefinition<{ sql: string }> {
  const { database, dialect, spillDirectory, scopes = ['db:read'], schemaSummary, allow } = options;
  const timeoutMs = options.timeoutMs ?? DB_QUERY_TIMEOUT_MS;
  const maxResultBytes = options.maxResultBytes ?? DB_QUERY_MAX_RESULT_BYTES;
  if (typeof database?.query !== 'function') {
    throw new MilpaError('dbQueryTool needs a database with a query(sql, options) function.', { code: 'INVALID_ARGUMENT' });
  }
  if (!SQL_DIALECTS.includes(dialect)) {
    throw new MilpaError(`dbQueryTool dialect must be one of ${SQL_DIALECTS.join(', ')}, got ${JSON.stringify(dialect)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  for (const [name, value] of [
    ['timeoutMs', timeoutMs],
    ['maxResultBytes', maxResultBytes],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new MilpaError(`dbQueryTool ${name} must be a positive integer, got ${String(value)}.`, { code: 'INVALID_ARGUMENT' });
    }
  }
  const allowlist = allow === undefined ? undefined : validateSqlAllowlist(allow);

  const description = [
    `Run one read-only SQL SELECT against the ${dialect} database and get the rows back as JSON.`,
    'Send a single SELECT (UNION and WITH … SELECT are fine) with no comments and no second statement.',
    'Refused: INTO, locking clauses (FOR UPDATE), system catalogs (information_schema, pg_catalog, sqlite_master),',
    'file, code and sleep functions (LOAD_FILE, load_extension, pg_read_file, …), ' +
      'blob builders (zeroblob, randomblob), printf widths,',
    'recursive WITH without a LIMIT, and any column, alias or string naming a password, secret, key or token.',
    allowlist === undefined
      ? ''
      : `Only these tables and columns may be used: ${describeAllowlist(allowlist)}; ` +
        'qualify columns (table.column) when several tables are joined.',
    `A query is stopped after ${timeoutMs} ms or ${maxResultBytes} bytes of rows.`,
    `At most ${DB_QUERY_MAX_ROWS} rows and ${DB_QUERY_MAX_BYTES} bytes come back inline; ` +
      'a larger result returns a preview plus spill_path, a JSON Lines file with every row.',
    'Name the columns you need and add WHERE and LIMIT to keep results small.',
    schemaSummary === undefined || schemaSummary.trim() === '' ? '' : `Tables: ${schemaSummary.trim()}`,
  ]
    .filter((line) => line !== '')
    .join(' ');

  const input = Type.Object(
    {
      sql: Type.String({
        minLength: 1,
        maxLength: SQL_MAX_LENGTH,
        description: `One read-only ${dialect} SELECT statement, without comments; one trailing ';' is fine.`,
      }),
    },
    { additionalProperties: false },
  );

  return defineLifecycleTool<typeof input, string, readonly SqlRow[]>({
    name: 'db_query',
    description,
    input,
    scopes: [...scopes],
    mutating: false,
    routing: {
      intents: ['query the database', 'look up records', 'count rows', 'read table data'],
      domains: ['database', 'sql', 'data'],
      tags: ['read-only', 'sql', dialect],
      examples: ["SELECT id, customer, total FROM orders WHERE placed_at >= '2026-01-01' ORDER BY total DESC LIMIT 20"],
    },
    plan: async (args) => {
      const unknown = rejectUnknownArguments(args, ['sql']);
      if (unknown !== null) return { result: unknown };
      const check = await checkSqlQuery(args.sql, dialect, allowlist === undefined ? {} : { allow: allowlist });
      if (!check.ok) return { result: failure(check.code, check.message) };
      return { input: args.sql };
    },
    perform: async (sql, invocation) => {
      // The statement timeout and the caller's abort reach the database as one signal.
      const controller = new AbortController();
      const timeout = new ToolError(
        'QUERY_TIMEOUT',
        `The query ran longer than ${timeoutMs} ms and was stopped: add WHERE and LIMIT, or avoid large joins and recursion.`,
      );
      const timer = setTimeout(() => controller.abort(timeout), timeoutMs);
      const onAbort = () => controller.abort(invocation.signal.reason);
      if (invocation.signal.aborted) onAbort();
      else invocation.signal.addEventListener('abort', onAbort, { once: true });
      try {
        const rows = await database.query(sql, { maxRows: DB_QUERY_MAX_ROWS + 1, maxBytes: maxResultBytes, signal: controller.signal });
        // A driver that ignores maxBytes still never hands the model more than the budget.
        if (rowBytes(rows) > maxResultBytes) throw tooLarge(maxResultBytes);
        return rows;
      } catch (error) {
        if (controller.signal.reason === timeout && !invocation.signal.aborted) throw timeout;
        if (error instanceof ToolError || invocation.signal.aborted) throw error;
        const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
        throw new ToolError('QUERY_FAILED', `The database refused the query: ${message}`);
      } finally {
        clearTimeout(timer);
        invocation.signal.removeEventListener('abort', onAbort);
      }
    },
    complete: async (returned) => presentRows(returned, spillDirectory),
  });
}

async function presentRows(returned: readonly SqlRow[], spillDirectory: string | undefined): Promise<ToolResult> {
  const truncated = returned.length > DB_QUERY_MAX_ROWS;
  const columns = columnsOf(returned);
  const redacted = columns.filter(isSecretColumn);
  const rows = returned.slice(0, DB_QUERY_MAX_ROWS).map((row) => toJsonRow(row, redacted));
  const warnings: string[] = [];
  if (truncated) {
    warnings.push(`Only the first ${DB_QUERY_MAX_ROWS} rows are returned; add WHERE or LIMIT to narrow the query.`);
  }
  if (redacted.length > 0) {
    warnings.push(`Values of ${redacted.map((column) => `'${column}'`).join(', ')} are ${REDACTED}: the column names mark secrets.`);
  }
  const lines = rows.map((row) => JSON.stringify(row));
  // The JSON of the rows array: brackets plus the rows and the commas between them.
  const bytes = 2 + lines.reduce((total, line) => total + Buffer.byteLength(line), 0) + Math.max(0, lines.length - 1);
  const meta = { row_count: rows.length, truncated, bytes };
  if (bytes <= DB_QUERY_MAX_BYTES) {
    return success<DbQueryData>({ columns, rows, row_count: rows.length, truncated }, meta, warnings);
  }

  let previewBytes = 2;
  let preview = 0;
  for (const line of lines) {
    const next = previewBytes + Buffer.byteLength(line) + (preview === 0 ? 0 : 1);
    if (next > DB_QUERY_MAX_BYTES) break;
    previewBytes = next;
    preview += 1;
  }
  const previewRows = rows.slice(0, preview);
  let spillPath: string;
  try {
    spillPath = await writeJsonLinesSpill('db-query', rows, spillDirectory);
  } catch (error) {
    warnings.push(
      `The rows take ${bytes} bytes, over the ${DB_QUERY_MAX_BYTES}-byte limit: only the first ${preview} are shown, ` +
        `and the rest could not be written to a file (${error instanceof Error ? error.message : String(error)}).`,
    );
    return success<DbQueryData>(
      { columns, rows: previewRows, row_count: rows.length, truncated },
      { ...meta, preview_rows: preview },
      warnings,
    );
  }
  warnings.push(
    `The rows take ${bytes} bytes, over the ${DB_QUERY_MAX_BYTES}-byte limit: the first ${preview} are shown, ` +
      `and all ${rows.length} are in the JSON Lines file at spill_path.`,
  );
  return success<DbQueryData>(
    { columns, rows: previewRows, row_count: rows.length, truncated, spill_path: spillPath },
    { ...meta, preview_rows: preview, spill_path: spillPath },
    warnings,
  );
}

function describeAllowlist(allow: SqlAllowlist): string {
  return Object.entries(allow)
    .map(([table, columns]) => `${table}(${columns === '*' ? '*' : columns.join(', ')})`)
    .join(', ');
}

/** The bytes of rows as the query process counts them: names, text as UTF-8, blobs raw, 8 per other value. */
function rowBytes(rows: readonly SqlRow[]): number {
  let size = 0;
  for (const row of rows) {
    for (const [key, value] of Object.entries(row)) {
      size += key.length;
      if (typeof value === 'string') size += Buffer.byteLength(value);
      else if (value instanceof Uint8Array) size += value.byteLength;
      else size += 8;
    }
  }
  return size;
}

function tooLarge(maxBytes: number): ToolError {
  return new ToolError(
    'RESULT_TOO_LARGE',
    `The rows take more than ${maxBytes} bytes: select fewer or shorter columns (substr, length), or fewer rows.`,
  );
}

function columnsOf(rows: readonly SqlRow[]): string[] {
  const columns = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) columns.add(key);
  return [...columns];
}

function isSecretColumn(column: string): boolean {
  const squeezed = column.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SECRET_PARTS.some((part) => squeezed.includes(part));
}

function toJsonRow(row: SqlRow, redacted: readonly string[]): SqlRow {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[key] = redacted.includes(key) && value !== null ? REDACTED : toJsonValue(value);
  return out;
}

/** A value JSON can carry: big integers as numbers when exact, else strings; blobs as base64; dates as ISO text. */
function toJsonValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Uint8Array) return { type: 'blob', bytes: value.byteLength, base64: Buffer.from(value).toString('base64') };
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  return value;
}
