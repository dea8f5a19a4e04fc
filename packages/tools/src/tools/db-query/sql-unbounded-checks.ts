import { type SqlFinding, type SqlNode, isSqlLiteral, isSqlNode, sqlFunctionArgs, sqlFunctionName, sqlNamesOf } from './sql-ast.js';

/**
 * Functions that build a value of any size from a small argument (`zeroblob(300000000)`,
 * `randomblob(1e9)`, `repeat('x', 1e9)`), refused whatever their arguments.
 */
export const SQL_VALUE_BUILDER_FUNCTIONS: readonly string[] = Object.freeze(['zeroblob', 'randomblob', 'repeat', 'space']);

/** The widest `printf`/`format` field and the longest `lpad`/`rpad` length `db_query` accepts. */
export const SQL_MAX_FIELD_WIDTH = 1000;

const BUILDERS: ReadonlySet<string> = new Set(SQL_VALUE_BUILDER_FUNCTIONS);
// A printf conversion: flags, then a width and a precision, each digits or `*` (taken from an argument).
const CONVERSION = /%[-+ 0#,!]*(\*|\d+)?(?:\.(\*|\d+))?(?:ll|l)?[A-Za-z%]?/g;

/**
 * Finds, in one node of a parsed SELECT, work or values without a bound: a recursive common table
 * expression without a literal `LIMIT` of its own (a `WHERE` cannot be proven to end it; `LIMIT -1`
 * means no limit in SQLite), value builders ({@link SQL_VALUE_BUILDER_FUNCTIONS}), `printf`/`format`
 * with a computed format, a `*` width or precision or one over {@link SQL_MAX_FIELD_WIDTH},
 * `lpad`/`rpad` to a computed or longer length, and `replace` with a computed replacement (chained,
 * it multiplies a value's length at each step). Time is bounded by the statement timeout as well.
 */
export function findUnboundedWork(node: SqlNode): SqlFinding[] {
  const findings: SqlFinding[] = [];
  if (Array.isArray(node['with'])) {
    for (const cte of node['with']) if (isSqlNode(cte)) checkRecursion(cte, findings);
  }
  if (node['type'] === 'function' || node['type'] === 'aggr_func') checkFunction(node, findings);
  return findings;
}

function checkRecursion(cte: SqlNode, findings: SqlFinding[]): void {
  const name = (sqlNamesOf(cte['name']).at(-1) ?? '').toLowerCase();
  const stmt = cte['stmt'];
  const body = isSqlNode(stmt) && isSqlNode(stmt['ast']) ? stmt['ast'] : stmt;
  // A CTE that names itself is recursive, with or without the RECURSIVE keyword (SQLite needs none).
  if (referencesTable(body, name, 0) && !hasLiteralLimit(body)) {
    findings.push({
      code: 'UNBOUNDED_QUERY',
      message: `The recursive WITH '${name}' has no LIMIT, so it may never end: add LIMIT <number> inside it (after its last SELECT).`,
    });
  }
}

function referencesTable(value: unknown, name: string, depth: number): boolean {
  if (depth > 200) return true;
  if (Array.isArray(value)) return value.some((item) => referencesTable(item, name, depth + 1));
  if (!isSqlNode(value)) return false;
  if ('table' in value && ('db' in value || 'as' in value) && value['expr'] === undefined) {
    if (sqlNamesOf(value['table']).some((table) => table.toLowerCase() === name)) return true;
  }
  return Object.entries(value).some(
    ([key, child]) => key !== 'tableList' && key !== 'columnList' && referencesTable(child, name, depth + 1),
  );
}

/** True when the CTE body (or one of its set-operation branches, where SQLite's grammar puts it) has `LIMIT <integer ≥ 0>`. */
function hasLiteralLimit(body: unknown): boolean {
  for (let select: unknown = body; isSqlNode(select); select = select['_next']) {
    const limit = select['limit'];
    const values = isSqlNode(limit) && Array.isArray(limit['value']) ? limit['value'] : [];
    const first = values[0];
    if (isSqlNode(first) && first['type'] === 'number' && Number.isInteger(Number(first['value'])) && Number(first['value']) >= 0) {
      return true;
    }
  }
  return false;
}

function checkFunction(node: SqlNode, findings: SqlFinding[]): void {
  const name = sqlFunctionName(node);
  const args = sqlFunctionArgs(node);
  if (BUILDERS.has(name)) {
    findings.push({
      code: 'UNBOUNDED_QUERY',
      message: `The function ${name}() builds a value of any size from a number, so it is refused.`,
    });
    return;
  }
  if (name === 'printf' || name === 'format') {
    const format = args[0];
    if (!isSqlNode(format) || typeof format['value'] !== 'string' || !/string$/.test(String(format['type']))) {
      findings.push({ code: 'UNBOUNDED_QUERY', message: `${name}() needs its format as a string literal, so its output length is known.` });
      return;
    }
    for (const match of format['value'].matchAll(CONVERSION)) {
      for (const size of [match[1], match[2]]) {
        if (size === '*' || (size !== undefined && Number(size) > SQL_MAX_FIELD_WIDTH)) {
          findings.push({
            code: 'UNBOUNDED_QUERY',
            message:
              `${name}() with the width or precision '${match[0]}' can build a huge value: ` +
              `use a number up to ${SQL_MAX_FIELD_WIDTH}, not '*'.`,
          });
          return;
        }
      }
    }
  }
  if (name === 'lpad' || name === 'rpad') {
    const length = args[1];
    if (!isSqlNode(length) || length['type'] !== 'number' || Number(length['value']) > SQL_MAX_FIELD_WIDTH) {
      findings.push({ code: 'UNBOUNDED_QUERY', message: `${name}() pads to a literal length up to ${SQL_MAX_FIELD_WIDTH} only.` });
    }
  }
  if (name === 'replace' && args.length >= 3 && !isSqlLiteral(args[2])) {
    findings.push({
      code: 'UNBOUNDED_QUERY',
      message: "replace() with a computed replacement can multiply a value's length at each step: give the replacement as a literal.",
    });
  }
}
