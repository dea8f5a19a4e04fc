import type { SqlRefusalCode } from './check-sql-query.js';

/** A node of node-sql-parser's syntax tree. */
export type SqlNode = Record<string, unknown>;

/** One problem a check found in a query, before the most important is chosen. */
export type SqlFinding = { readonly code: SqlRefusalCode; readonly message: string };

/** True for a syntax tree node (an object that is not an array). */
export function isSqlNode(value: unknown): value is SqlNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of a name node: `'x'`, `{ value: 'x' }`, `{ expr: { value: 'x' } }`, `{ name: [{ value: 'x' }] }`. */
export function sqlNamesOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(sqlNamesOf);
  if (!isSqlNode(value)) return [];
  if (typeof value['value'] === 'string') return [value['value']];
  if (value['expr'] !== undefined) return sqlNamesOf(value['expr']);
  if (value['name'] !== undefined) return sqlNamesOf(value['name']);
  return [];
}

/** The lower-case name of a function node (`schema.name` gives `name`). */
export function sqlFunctionName(node: SqlNode): string {
  return (sqlNamesOf(node['name']).at(-1) ?? '').toLowerCase();
}

/** The argument nodes of a function node. */
export function sqlFunctionArgs(node: SqlNode): unknown[] {
  const args = node['args'];
  if (isSqlNode(args) && Array.isArray(args['value'])) return args['value'];
  if (isSqlNode(args) && args['expr'] !== undefined) return [args['expr']];
  return [];
}

/** True for a literal: a string, number, boolean or NULL. */
export function isSqlLiteral(value: unknown): boolean {
  if (!isSqlNode(value)) return false;
  const type = value['type'];
  return typeof type === 'string' && (/string$/.test(type) || ['number', 'bool', 'boolean', 'null'].includes(type));
}
