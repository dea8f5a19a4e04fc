import type { SqlDialect } from './sql-dialect.js';
import { type SqlFinding, type SqlNode, isSqlLiteral, isSqlNode, sqlFunctionArgs, sqlFunctionName, sqlNamesOf } from './sql-ast.js';

/**
 * JSON functions that turn a document into rows of keys and values (`json_each`, `json_tree`,
 * `jsonb_each`, `json_table`, …): without an allowlist they are refused, since they return keys the
 * query never names.
 */
export const SQL_JSON_TABLE_FUNCTIONS: readonly string[] = Object.freeze([
  'json_each',
  'json_tree',
  'jsonb_each',
  'jsonb_tree',
  'json_each_text',
  'jsonb_each_text',
  'json_table',
  'json_to_record',
  'json_to_recordset',
  'jsonb_to_record',
  'jsonb_to_recordset',
  'json_populate_record',
  'json_populate_recordset',
  'jsonb_populate_record',
  'jsonb_populate_recordset',
  'json_object_keys',
  'jsonb_object_keys',
  'json_keys',
]);

const JSON_TABLES: ReadonlySet<string> = new Set(SQL_JSON_TABLE_FUNCTIONS);
const JSON_PATH_OPERATORS: ReadonlySet<string> = new Set(['->', '->>', '#>', '#>>', '#-']);
const MAX_DEPTH = 200;

/**
 * Without an allowlist, finds the ways a query can return a secret column under another name, which
 * a check of the names it writes cannot see: `*` anywhere but the outer SELECT's own result columns
 * (a `WITH u(a, b, c) AS (SELECT * FROM users)` renames them, a later `UNION` branch takes the
 * first branch's names, a subquery hides them); a JSON path that is not a string literal
 * (`'$.pass' || 'word'`), since only a literal can be checked for secret names; JSON table-valued
 * functions ({@link SQL_JSON_TABLE_FUNCTIONS}); and, in PostgreSQL, a table or alias used as a value
 * (`SELECT u FROM users u`, `row_to_json(u)`), which returns the whole row.
 */
export function findHiddenSecrets(statement: SqlNode, dialect: SqlDialect): SqlFinding[] {
  const findings: SqlFinding[] = [];
  const tables = new Set<string>();
  if (dialect === 'postgresql') collectTableNames(statement, tables, 0);
  for (const [key, child] of Object.entries(statement)) {
    if (key === 'columns' && Array.isArray(child)) {
      for (const column of child) {
        // The outer SELECT's own `*`: the rows keep the real column names, which the tool redacts.
        if (isSqlNode(column) && isStar(column['expr'])) continue;
        visit(column, findings, tables, 0);
      }
    } else if (key !== 'tableList' && key !== 'columnList') visit(child, findings, tables, 0);
  }
  return findings;
}

function isStar(value: unknown): boolean {
  return isSqlNode(value) && value['type'] === 'column_ref' && sqlNamesOf(value['column']).at(-1) === '*';
}

function collectTableNames(value: unknown, names: Set<string>, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value) collectTableNames(item, names, depth + 1);
    return;
  }
  if (!isSqlNode(value)) return;
  if ('table' in value && ('db' in value || 'as' in value) && value['type'] !== 'column_ref') {
    for (const name of sqlNamesOf(value['table'])) names.add(name.toLowerCase());
    if (typeof value['as'] === 'string') names.add(value['as'].toLowerCase());
  }
  for (const [key, child] of Object.entries(value))
    if (key !== 'tableList' && key !== 'columnList') collectTableNames(child, names, depth + 1);
}

function visit(value: unknown, findings: SqlFinding[], tables: ReadonlySet<string>, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value) visit(item, findings, tables, depth + 1);
    return;
  }
  if (!isSqlNode(value)) return;
  if (value['type'] === 'column_ref') checkColumnRef(value, findings, tables);
  if (value['type'] === 'function') checkFunction(value, findings);
  if (value['type'] === 'binary_expr' && JSON_PATH_OPERATORS.has(String(value['operator'])) && !isSqlLiteral(value['right'])) {
    findings.push(computedPath(String(value['operator'])));
  }
  for (const [key, child] of Object.entries(value))
    if (key !== 'tableList' && key !== 'columnList') visit(child, findings, tables, depth + 1);
}

function checkColumnRef(node: SqlNode, findings: SqlFinding[], tables: ReadonlySet<string>): void {
  const column = sqlNamesOf(node['column']).at(-1) ?? '';
  if (column === '*') {
    findings.push({
      code: 'COLUMN_NOT_ALLOWED',
      message:
        '* is accepted only in the outer SELECT: inside WITH, a subquery or a later UNION branch ' +
        'it can pass columns on under other names. Name the columns.',
    });
    return;
  }
  const qualified = sqlNamesOf(node['table']).length > 0;
  if (!qualified && tables.has(column.toLowerCase())) {
    findings.push({
      code: 'COLUMN_NOT_ALLOWED',
      message: `'${column}' names a table, which as a value returns its whole row: name the columns.`,
    });
  }
}

function checkFunction(node: SqlNode, findings: SqlFinding[]): void {
  const name = sqlFunctionName(node);
  if (JSON_TABLES.has(name)) {
    findings.push({
      code: 'FORBIDDEN_FUNCTION',
      message:
        `${name}() returns every key and value of a JSON document, including keys the query does not name: ` +
        'extract the keys you need with json_extract and a literal path.',
    });
    return;
  }
  // Every argument after the document is a path (or, for the setters, a path and a value).
  if (/^jsonb?_/.test(name) && !/^jsonb?_(?:object|array|build_|agg|group|quote|valid|pretty|strip|typeof)/.test(name)) {
    const args = sqlFunctionArgs(node).slice(1);
    if (args.some((arg) => !isSqlLiteral(arg))) findings.push(computedPath(`${name}()`));
  }
}

function computedPath(where: string): SqlFinding {
  return {
    code: 'SECRET_NAME',
    message: `A JSON path given to ${where} must be a string literal, so the keys it reads can be checked: write the path out in full.`,
  };
}
