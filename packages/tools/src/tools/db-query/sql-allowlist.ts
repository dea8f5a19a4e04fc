import { MilpaError } from '@milpa/core';
import { type SqlFinding, type SqlNode, isSqlNode, sqlNamesOf } from './sql-ast.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * The tables and columns `db_query` may read: table name to its allowed column names, or `'*'` for
 * every column. Names match without regard to case.
 *
 * @example
 * const allow: SqlAllowlist = { users: ['id', 'name'], orders: '*' };
 */
export type SqlAllowlist = Readonly<Record<string, readonly string[] | '*'>>;

/**
 * Checks an allowlist and returns a frozen copy with lower-case names.
 *
 * @throws MilpaError `INVALID_ARGUMENT` when it is not an object of table names to `'*'` or arrays of non-empty column names.
 * @example
 * validateSqlAllowlist({ Users: ['ID', 'name'] }); // { users: ['id', 'name'] }
 */
export function validateSqlAllowlist(allow: SqlAllowlist): SqlAllowlist {
  if (typeof allow !== 'object' || allow === null || Array.isArray(allow) || Object.keys(allow).length === 0) {
    throw invalid('allow must be an object naming at least one table: { users: ["id", "name"], orders: "*" }.');
  }
  const out: Record<string, readonly string[] | '*'> = {};
  for (const [table, columns] of Object.entries(allow)) {
    if (table.trim() === '') throw invalid('allow has an empty table name.');
    if (columns === '*') {
      out[table.toLowerCase()] = '*';
      continue;
    }
    if (!Array.isArray(columns) || columns.length === 0 || !columns.every((column) => typeof column === 'string' && column.trim() !== '')) {
      throw invalid(`allow.${table} must be '*' or a non-empty array of column names.`);
    }
    out[table.toLowerCase()] = Object.freeze(columns.map((column) => column.toLowerCase()));
  }
  return Object.freeze(out);
}

function invalid(message: string): MilpaError {
  return new MilpaError(`dbQueryTool ${message}`, { code: 'INVALID_ARGUMENT' });
}

type Source = { readonly kind: 'table'; readonly table: string } | { readonly kind: 'derived' };
type Scope = { readonly sources: readonly Source[] };

/**
 * Finds every use of a table or column `allow` does not list, anywhere in a parsed SELECT: result
 * columns, `WHERE`, `JOIN … ON`/`USING`, `GROUP BY`, `ORDER BY`, subqueries, common table
 * expressions and set-operation branches. A column qualified by a table (or its alias) must be
 * allowed in that table; an unqualified one in every table it could come from (those of its own
 * SELECT and of the SELECTs around it). `*` and `t.*` expand only over tables allowed with `'*'`.
 * A double-quoted name counts as a column in SQLite and PostgreSQL, as those databases read it.
 * CTEs, subqueries and table-valued functions are sources whose own columns were checked where
 * they are built. `NATURAL JOIN` is refused unless every table is allowed with `'*'`.
 */
export function findAllowlistViolations(statement: SqlNode, allow: SqlAllowlist, dialect: SqlDialect): SqlFinding[] {
  const findings: SqlFinding[] = [];
  const cteNames = new Set<string>();
  collectCteNames(statement, cteNames, 0);
  const aliases = new Map<string, Source[]>();
  // SQLite and PostgreSQL read "email" as a name: the parser calls it a string, the database a column.
  const quotedNames = dialect !== 'mysql';
  visit(statement, [], { allow, findings, cteNames, aliases, quotedNames }, 0);
  return findings;
}

type State = {
  readonly allow: SqlAllowlist;
  readonly findings: SqlFinding[];
  readonly cteNames: ReadonlySet<string>;
  readonly aliases: Map<string, Source[]>;
  readonly quotedNames: boolean;
};

const MAX_DEPTH = 200;

function collectCteNames(value: unknown, names: Set<string>, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value) collectCteNames(item, names, depth + 1);
    return;
  }
  if (!isSqlNode(value)) return;
  if (Array.isArray(value['with'])) {
    for (const cte of value['with']) if (isSqlNode(cte)) for (const name of sqlNamesOf(cte['name'])) names.add(name.toLowerCase());
  }
  for (const [key, child] of Object.entries(value))
    if (key !== 'tableList' && key !== 'columnList') collectCteNames(child, names, depth + 1);
}

function visit(value: unknown, scopes: readonly Scope[], state: State, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    for (const item of value) visit(item, scopes, state, depth + 1);
    return;
  }
  if (!isSqlNode(value)) return;
  if (value['type'] === 'select') {
    visitSelect(value, scopes, state, depth);
    return;
  }
  if (value['type'] === 'column_ref') {
    checkColumn(value, scopes, state);
    return;
  }
  if (value['type'] === 'double_quote_string' && state.quotedNames && typeof value['value'] === 'string') {
    checkColumn({ type: 'column_ref', table: null, column: value['value'] }, scopes, state);
    return;
  }
  for (const [key, child] of Object.entries(value)) if (key !== 'tableList' && key !== 'columnList') visit(child, scopes, state, depth + 1);
}

function visitSelect(select: SqlNode, outer: readonly Scope[], state: State, depth: number): void {
  // CTE bodies and later set-operation branches see only the scopes around this SELECT.
  visit(select['with'], outer, state, depth + 1);
  visit(select['_next'], outer, state, depth + 1);
  const from = Array.isArray(select['from']) ? select['from'].filter(isSqlNode) : [];
  const sources: Source[] = [];
  for (const item of from) sources.push(sourceOf(item, state));
  const scope: Scope = { sources };
  const inner = [...outer, scope];
  const allStar = sources.every((source) => source.kind === 'derived' || state.allow[source.table] === '*');
  for (const item of from) {
    // SQLite's grammar here reads `users NATURAL JOIN orders` as `users AS natural JOIN orders`.
    const natural = /natural/i.test(String(item['join'] ?? '')) || /^natural$/i.test(String(item['as'] ?? ''));
    if (natural && !allStar) {
      state.findings.push(notAllowed('COLUMN_NOT_ALLOWED', 'NATURAL JOIN compares columns the query does not name: join with ON.'));
    }
    for (const name of sqlNamesOf(item['using'])) checkName(name.toLowerCase(), sources, state, name);
    visit(item['expr'], inner, state, depth + 1);
    visit(item['on'], inner, state, depth + 1);
  }
  const outputAliases = new Set<string>();
  if (Array.isArray(select['columns'])) {
    for (const column of select['columns']) {
      if (isSqlNode(column) && typeof column['as'] === 'string') outputAliases.add(column['as'].toLowerCase());
    }
  }
  for (const [key, child] of Object.entries(select)) {
    if (['with', '_next', 'from', 'tableList', 'columnList'].includes(key)) continue;
    if (key === 'orderby' && Array.isArray(child)) {
      for (const item of child) {
        // `ORDER BY n` names a result column when one is called n (SQLite looks there first);
        // inside an expression the name may reach the table's column instead, so it is checked.
        const expr = isSqlNode(item) ? item['expr'] : undefined;
        const name = bareNameOf(expr);
        if (name !== undefined && outputAliases.has(name)) continue;
        visit(item, inner, state, depth + 1);
      }
      continue;
    }
    visit(child, inner, state, depth + 1);
  }
}

/** The lower-case name of an unqualified column reference (or double-quoted name), else undefined. */
function bareNameOf(expr: unknown): string | undefined {
  if (!isSqlNode(expr)) return undefined;
  if (expr['type'] === 'double_quote_string' && typeof expr['value'] === 'string') return expr['value'].toLowerCase();
  if (expr['type'] !== 'column_ref' || sqlNamesOf(expr['table']).length > 0) return undefined;
  return sqlNamesOf(expr['column']).at(-1)?.toLowerCase();
}

function sourceOf(item: SqlNode, state: State): Source {
  const alias = typeof item['as'] === 'string' ? item['as'].toLowerCase() : undefined;
  let source: Source;
  if (item['table'] !== undefined && item['table'] !== null && item['expr'] === undefined) {
    const table = (sqlNamesOf(item['table']).at(-1) ?? '').toLowerCase();
    if (state.cteNames.has(table)) source = { kind: 'derived' };
    else {
      source = { kind: 'table', table };
      if (state.allow[table] === undefined) {
        state.findings.push(
          notAllowed('TABLE_NOT_ALLOWED', `The table '${table}' is not one this tool may read; use ${listTables(state.allow)}.`),
        );
      }
    }
    remember(state.aliases, table, source);
  } else source = { kind: 'derived' };
  if (alias !== undefined) remember(state.aliases, alias, source);
  return source;
}

function remember(aliases: Map<string, Source[]>, name: string, source: Source): void {
  const known = aliases.get(name);
  if (known === undefined) aliases.set(name, [source]);
  else known.push(source);
}

function checkColumn(node: SqlNode, scopes: readonly Scope[], state: State): void {
  const column = (sqlNamesOf(node['column']).at(-1) ?? '').toLowerCase();
  const qualifier = (sqlNamesOf(node['table']).at(-1) ?? '').toLowerCase();
  if (qualifier !== '') {
    const sources = state.aliases.get(qualifier);
    if (sources === undefined) {
      state.findings.push(
        notAllowed('COLUMN_NOT_ALLOWED', `'${qualifier}.${column}' names no table of the query; use ${listTables(state.allow)}.`),
      );
      return;
    }
    checkName(column, sources, state, `${qualifier}.${column}`);
    return;
  }
  if (column === '*') {
    checkName(column, scopes.at(-1)?.sources ?? [], state, '*');
    return;
  }
  checkName(
    column,
    scopes.flatMap((scope) => scope.sources),
    state,
    column,
  );
}

function checkName(column: string, sources: readonly Source[], state: State, shown: string): void {
  for (const source of sources) {
    if (source.kind !== 'table') continue;
    const allowed = state.allow[source.table];
    if (allowed === undefined || allowed === '*') continue;
    if (column === '*') {
      state.findings.push(
        notAllowed(
          'COLUMN_NOT_ALLOWED',
          `* would read every column of '${source.table}', but only ${allowed.join(', ')} may be read: name them.`,
        ),
      );
    } else if (!allowed.includes(column)) {
      state.findings.push(
        notAllowed(
          'COLUMN_NOT_ALLOWED',
          `The column '${shown}' is not one this tool may read from '${source.table}' (allowed: ${allowed.join(', ')}); ` +
            'qualify columns (table.column) when several tables are joined.',
        ),
      );
    }
  }
}

function listTables(allow: SqlAllowlist): string {
  return Object.keys(allow).join(', ');
}

function notAllowed(code: 'TABLE_NOT_ALLOWED' | 'COLUMN_NOT_ALLOWED', message: string): SqlFinding {
  return { code, message };
}
