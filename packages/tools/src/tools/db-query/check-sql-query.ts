import type { SqlDialect } from './sql-dialect.js';
import { scanSqlText } from './scan-sql-text.js';
import { type SqlAllowlist, findAllowlistViolations, validateSqlAllowlist } from './sql-allowlist.js';
import { type SqlFinding, type SqlNode, isSqlNode, sqlNamesOf } from './sql-ast.js';
import { findHiddenSecrets } from './sql-hidden-secret-checks.js';
import { findUnboundedWork } from './sql-unbounded-checks.js';
import {
  SQL_FORBIDDEN_FUNCTIONS,
  SQL_FORBIDDEN_FUNCTION_PREFIXES,
  SQL_SECRET_NAME_PARTS,
  SQL_SYSTEM_SCHEMAS,
  SQL_SYSTEM_TABLE_PREFIXES,
} from './sql-refusal-lists.js';

/** The most characters of SQL `db_query` accepts. */
export const SQL_MAX_LENGTH = 10_000;

/** The codes of {@link checkSqlQuery}'s refusals, most important first. */
export type SqlRefusalCode =
  | 'INVALID_SQL'
  | 'SQL_COMMENT'
  | 'MULTIPLE_STATEMENTS'
  | 'SQL_PARSE_ERROR'
  | 'NOT_A_SELECT'
  | 'SELECT_INTO'
  | 'LOCKING_CLAUSE'
  | 'FORBIDDEN_FUNCTION'
  | 'UNBOUNDED_QUERY'
  | 'SYSTEM_CATALOG'
  | 'TABLE_NOT_ALLOWED'
  | 'COLUMN_NOT_ALLOWED'
  | 'SECRET_NAME';

/** Options of {@link checkSqlQuery}. */
export interface SqlCheckOptions {
  /** The tables and columns the query may use; without it, only names that look like secrets are refused. */
  readonly allow?: SqlAllowlist;
}

/** The outcome of {@link checkSqlQuery}: accepted, or refused with a code and a message for the model. */
export type SqlCheck = { readonly ok: true } | { readonly ok: false; readonly code: SqlRefusalCode; readonly message: string };

const PRIORITY: readonly SqlRefusalCode[] = [
  'NOT_A_SELECT',
  'SELECT_INTO',
  'LOCKING_CLAUSE',
  'FORBIDDEN_FUNCTION',
  'UNBOUNDED_QUERY',
  'SYSTEM_CATALOG',
  'TABLE_NOT_ALLOWED',
  'COLUMN_NOT_ALLOWED',
  'SECRET_NAME',
];
const FORBIDDEN_FUNCTIONS: ReadonlySet<string> = new Set(SQL_FORBIDDEN_FUNCTIONS);
const SYSTEM_SCHEMAS: ReadonlySet<string> = new Set(SQL_SYSTEM_SCHEMAS);
const LOCKING_KEYS = ['locking_read', 'for_update', 'lock', 'locking'] as const;
const ONLY_SELECT = 'Only one read-only SELECT (or WITH … SELECT) statement is accepted.';

type Node = SqlNode;
type Finding = SqlFinding;
type ParserModule = { readonly Parser: new () => { astify(sql: string, options: { database: string }): unknown } };

const parsers = new Map<SqlDialect, Promise<ParserModule>>();

// One grammar per dialect (~250 KB each), loaded on first use, instead of the 2.5 MB bundle of all.
function loadParser(dialect: SqlDialect): Promise<ParserModule> {
  let loaded = parsers.get(dialect);
  if (loaded === undefined) {
    const imported: Promise<unknown> =
      dialect === 'sqlite'
        ? import('node-sql-parser/build/sqlite.js')
        : dialect === 'mysql'
          ? import('node-sql-parser/build/mysql.js')
          : import('node-sql-parser/build/postgresql.js');
    // The grammars are CommonJS bundles: under Node's ESM loader their exports sit on `default`.
    loaded = imported.then((module) => {
      const exports = module as { default?: ParserModule } & Partial<ParserModule>;
      return exports.Parser === undefined ? (exports.default as ParserModule) : (exports as ParserModule);
    });
    parsers.set(dialect, loaded);
  }
  return loaded;
}

/**
 * Checks that `sql` is one read-only query, with a real SQL parser (node-sql-parser) and a small
 * lexer, failing closed: text the parser cannot read is refused.
 *
 * - The text: not empty, at most {@link SQL_MAX_LENGTH} characters, no comments, no second
 *   statement (one trailing `;` is fine), no control characters (see `scanSqlText`).
 * - The syntax tree: exactly one statement, a `SELECT` (with `UNION`/`INTERSECT`/`EXCEPT` chains
 *   and `WITH` common table expressions, each of them a `SELECT` too); then the whole tree —
 *   subqueries, CTEs, set operations, expressions — is walked for `INTO` of any kind (`OUTFILE`,
 *   `DUMPFILE`, variables, new tables), locking clauses (`FOR UPDATE`, `LOCK IN SHARE MODE`),
 *   forbidden functions (`LOAD_FILE`, `load_extension`, `pg_read_file`, …), system catalogs
 *   (`INFORMATION_SCHEMA`, `pg_catalog`, `sqlite_master`, …) and names that hold secrets.
 * - Secret names are looked for in every identifier, alias **and string literal**: SQLite takes a
 *   quoted string as a column name where a name is expected, and a JSON path such as
 *   `json_extract(data, '$.password')` reads a secret through a string. So `SELECT 'password'` is
 *   refused too; a query that must compare with such a word is not something this tool runs.
 *
 * - Unbounded work: a recursive `WITH` without a literal `LIMIT`, value builders (`zeroblob`,
 *   `randomblob`, `repeat`), wide `printf`/`format` fields and computed `replace` replacements
 *   (`UNBOUNDED_QUERY`).
 * - With `options.allow`, the safe default: every table and column the query uses must be listed
 *   (`TABLE_NOT_ALLOWED`, `COLUMN_NOT_ALLOWED`), wherever it appears. Without it, what could pass a
 *   secret column on under another name is refused instead: `*` outside the outer SELECT, JSON
 *   paths that are not literals, JSON table-valued functions, PostgreSQL whole-row references.
 *
 * The check is syntactic: run the query over a read-only connection as well (see `SqlDatabase`).
 *
 * @example
 * await checkSqlQuery('SELECT id, name FROM users WHERE id = 1', 'sqlite'); // { ok: true }
 * await checkSqlQuery('SELECT 1; DROP TABLE users', 'sqlite'); // { ok: false, code: 'MULTIPLE_STATEMENTS', … }
 */
export async function checkSqlQuery(sql: string, dialect: SqlDialect, options: SqlCheckOptions = {}): Promise<SqlCheck> {
  const allow = options.allow === undefined ? undefined : validateSqlAllowlist(options.allow);
  if (typeof sql !== 'string' || sql.trim() === '') return refuse('INVALID_SQL', 'sql must be a non-empty SELECT statement.');
  if (sql.length > SQL_MAX_LENGTH) {
    return refuse('INVALID_SQL', `sql must be at most ${SQL_MAX_LENGTH} characters, got ${sql.length}.`);
  }
  const finding = scanSqlText(sql, dialect);
  if (finding !== null) {
    switch (finding.kind) {
      case 'comment':
        return refuse(
          'SQL_COMMENT',
          `Comments are not accepted (found '${finding.marker}' at character ${finding.offset + 1}): remove them and send the query alone.`,
        );
      case 'statement-separator':
        return refuse(
          'MULTIPLE_STATEMENTS',
          `Only one statement is accepted, but text follows the ';' at character ${finding.offset + 1}. ${ONLY_SELECT}`,
        );
      case 'unterminated':
        return refuse('SQL_PARSE_ERROR', `The ${finding.quote} opened at character ${finding.offset + 1} is never closed.`);
      case 'control-character':
        return refuse(
          'INVALID_SQL',
          `sql contains a control character at character ${finding.offset + 1}; only tabs and line breaks are accepted.`,
        );
    }
  }

  let ast: unknown;
  try {
    const { Parser } = await loadParser(dialect);
    ast = new Parser().astify(sql, { database: dialect });
  } catch (error) {
    const detail = (error instanceof Error ? error.message : String(error)).split('\n')[0]?.slice(0, 240) ?? '';
    return refuse('SQL_PARSE_ERROR', `The query could not be parsed as ${dialect} SQL, so it is not run (${detail}). ${ONLY_SELECT}`);
  }
  const statements = Array.isArray(ast) ? ast : [ast];
  if (statements.length !== 1)
    return refuse('MULTIPLE_STATEMENTS', `Only one statement is accepted, got ${statements.length}. ${ONLY_SELECT}`);
  const statement = statements[0];
  if (!isNode(statement) || statement['type'] !== 'select') {
    return refuse('NOT_A_SELECT', `${describeStatement(statement)} is not a SELECT. ${ONLY_SELECT}`);
  }

  const findings: Finding[] = [];
  walk(statement, findings, 0);
  findings.push(...(allow === undefined ? findHiddenSecrets(statement, dialect) : findAllowlistViolations(statement, allow, dialect)));
  if (findings.length === 0) return { ok: true };
  const first = [...findings].sort((a, b) => PRIORITY.indexOf(a.code) - PRIORITY.indexOf(b.code))[0] as Finding;
  return refuse(first.code, first.message);
}

function refuse(code: SqlRefusalCode, message: string): SqlCheck {
  return { ok: false, code, message };
}

const isNode = isSqlNode;
const namesOf = sqlNamesOf;

function describeStatement(statement: unknown): string {
  if (!isNode(statement) || typeof statement['type'] !== 'string') return 'The statement';
  const type = statement['type'].toUpperCase();
  return `${/^[AEIOU]/.test(type) ? 'An' : 'A'} ${type} statement`;
}

// Deep enough for any query a person writes; a deeper tree is refused rather than walked unbounded.
const MAX_DEPTH = 200;

function walk(value: unknown, findings: Finding[], depth: number): void {
  if (depth > MAX_DEPTH) {
    findings.push({ code: 'NOT_A_SELECT', message: 'The query nests too deeply to be checked.' });
    return;
  }
  if (typeof value === 'string') {
    checkSecret(value, findings);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) walk(item, findings, depth + 1);
    return;
  }
  if (!isNode(value)) return;
  checkNode(value, findings);
  for (const [key, child] of Object.entries(value)) {
    // The parser's `tableList` / `columnList` repeat names already in the tree, as `select::null::name`.
    if (key === 'tableList' || key === 'columnList') continue;
    walk(child, findings, depth + 1);
  }
}

function checkNode(node: Node, findings: Finding[]): void {
  // A nested statement (subquery `{ ast }`, CTE body, set-operation branch) must be a SELECT too.
  for (const key of ['ast', '_next'] as const) {
    const nested = node[key];
    if (isNode(nested) && nested['type'] !== undefined && nested['type'] !== 'select') {
      findings.push({ code: 'NOT_A_SELECT', message: `${describeStatement(nested)} is nested in the query. ${ONLY_SELECT}` });
    }
  }
  findings.push(...findUnboundedWork(node));
  if (isStatementType(node['type'])) {
    findings.push({ code: 'NOT_A_SELECT', message: `${describeStatement(node)} is nested in the query. ${ONLY_SELECT}` });
  }

  const into = node['into'];
  if (isNode(into) && (into['type'] != null || into['keyword'] != null || into['expr'] != null)) {
    const keyword = typeof into['keyword'] === 'string' && into['keyword'] !== 'var' ? ` ${into['keyword'].toUpperCase()}` : '';
    findings.push({ code: 'SELECT_INTO', message: `SELECT … INTO${keyword} writes its rows somewhere; only plain SELECT is accepted.` });
  }

  for (const key of LOCKING_KEYS) {
    const lock = node[key];
    if (lock != null && lock !== false && (node['type'] === 'select' || key !== 'lock')) {
      const clause = typeof lock === 'string' ? lock.toUpperCase() : 'a locking clause';
      findings.push({ code: 'LOCKING_CLAUSE', message: `${clause} locks rows; read-only queries must not lock.` });
    }
  }

  if (node['type'] === 'function' || node['type'] === 'aggr_func') {
    const parts = namesOf(node['name']);
    const name = (parts.at(-1) ?? '').toLowerCase();
    if (FORBIDDEN_FUNCTIONS.has(name) || SQL_FORBIDDEN_FUNCTION_PREFIXES.some((prefix) => name.startsWith(prefix))) {
      findings.push({
        code: 'FORBIDDEN_FUNCTION',
        message:
          `The function ${name}() is not allowed: ` +
          'it reads or writes files, runs code or other SQL, changes state, or stalls the database.',
      });
    }
  }

  // A table reference: `{ db, table }` (with `schema` in some grammars).
  if ('table' in node && ('db' in node || 'schema' in node)) {
    const schemas = [...namesOf(node['db']), ...namesOf(node['schema'])].map((name) => name.toLowerCase());
    const tables = namesOf(node['table']).map((name) => name.toLowerCase());
    const schema = schemas.find((name) => SYSTEM_SCHEMAS.has(name));
    const table = tables.find((name) => SQL_SYSTEM_TABLE_PREFIXES.some((prefix) => name.startsWith(prefix)));
    if (schema !== undefined || table !== undefined) {
      findings.push({
        code: 'SYSTEM_CATALOG',
        message: `'${schema ?? table}' is a system catalog (users, grants, the schema); query the application's own tables.`,
      });
    }
  }
}

// Statement types of node-sql-parser's grammars other than `select`.
const STATEMENT_TYPES: ReadonlySet<string> = new Set([
  'insert',
  'replace',
  'update',
  'delete',
  'create',
  'drop',
  'alter',
  'truncate',
  'rename',
  'use',
  'set',
  'lock',
  'unlock',
  'grant',
  'revoke',
  'call',
  'exec',
  'execute',
  'attach',
  'detach',
  'transaction',
  'show',
  'explain',
  'load_data',
  'declare',
  'deallocate',
  'prepare',
  'comment',
  'analyze',
  'vacuum',
  'pragma',
  'copy',
  'merge',
  'upsert',
  'reindex',
  'refresh',
  'listen',
  'notify',
  'do',
]);

function isStatementType(type: unknown): boolean {
  // Case matters: statement types are lower case, while an ORDER BY item's `type` is 'ASC' or 'DESC'.
  return typeof type === 'string' && STATEMENT_TYPES.has(type);
}

function checkSecret(text: string, findings: Finding[]): void {
  const squeezed = text.toLowerCase().replace(/[^a-z0-9]/g, '');
  const part = SQL_SECRET_NAME_PARTS.find((name) => squeezed.includes(name));
  if (part === undefined) return;
  const shown = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  findings.push({
    code: 'SECRET_NAME',
    message: `'${shown}' names a secret (${part}); columns, aliases and strings naming passwords, keys or tokens are refused.`,
  });
}
