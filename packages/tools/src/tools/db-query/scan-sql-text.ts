import type { SqlDialect } from './sql-dialect.js';

/** What {@link scanSqlText} found outside string literals and quoted identifiers. */
export type SqlTextFinding =
  | { readonly kind: 'comment'; readonly marker: '--' | '/*' | '#'; readonly offset: number }
  | { readonly kind: 'statement-separator'; readonly offset: number }
  | { readonly kind: 'unterminated'; readonly quote: string; readonly offset: number }
  | { readonly kind: 'control-character'; readonly offset: number };

type Quote = { readonly open: string; readonly close: string; readonly backslashEscapes: boolean };

/**
 * Scans SQL text for what the parser may drop silently: comments (`--`, `/* *\/`, `#`), a second
 * statement after a `;`, a string or quoted identifier left open, and control characters other
 * than tab and line breaks. String literals (`'…'`, MySQL's `"…"`, PostgreSQL's `E'…'` and
 * `$tag$…$tag$`) and quoted identifiers (`"…"`, `` `…` ``, `[…]`) are skipped, so
 * `SELECT '--' AS x` is clean. Returns the first finding, or null.
 *
 * `#` counts as a comment in every dialect, and `--` even without the space MySQL wants after it:
 * node-sql-parser's grammars accept both in places the database may not, and a comment the parser
 * and the database read differently is how a second statement is smuggled past the check.
 *
 * @example
 * scanSqlText("SELECT '--' AS x", 'sqlite'); // null
 * scanSqlText('SELECT 1; DROP TABLE t', 'sqlite'); // { kind: 'statement-separator', offset: 8 }
 */
export function scanSqlText(sql: string, dialect: SqlDialect): SqlTextFinding | null {
  let index = 0;
  let separator = -1;
  while (index < sql.length) {
    const char = sql[index] as string;
    const next = sql[index + 1];
    const code = char.charCodeAt(0);
    if ((code < 0x20 && char !== '\t' && char !== '\n' && char !== '\r') || code === 0x7f) {
      return { kind: 'control-character', offset: index };
    }
    // Anything but whitespace after a `;` is a second statement.
    if (separator >= 0 && !/\s/.test(char)) return { kind: 'statement-separator', offset: separator };
    if (char === '-' && next === '-') return { kind: 'comment', marker: '--', offset: index };
    if (char === '/' && next === '*') return { kind: 'comment', marker: '/*', offset: index };
    if (char === '#') return { kind: 'comment', marker: '#', offset: index };
    if (char === ';') {
      separator = index;
      index += 1;
      continue;
    }
    const dollar = dialect === 'postgresql' && char === '$' ? dollarTagAt(sql, index) : null;
    if (dollar !== null) {
      const end = sql.indexOf(dollar, index + dollar.length);
      if (end < 0) return { kind: 'unterminated', quote: dollar, offset: index };
      index = end + dollar.length;
      continue;
    }
    const quote = quoteAt(sql, index, dialect);
    if (quote !== null) {
      const end = closingIndex(sql, index + quote.open.length, quote);
      if (end < 0) return { kind: 'unterminated', quote: quote.open, offset: index };
      index = end + 1;
      continue;
    }
    index += 1;
  }
  return null;
}

function quoteAt(sql: string, index: number, dialect: SqlDialect): Quote | null {
  const char = sql[index];
  const previous = index > 0 ? (sql[index - 1] as string) : '';
  const mysql = dialect === 'mysql';
  if (char === "'") {
    // PostgreSQL's E'…' strings take backslash escapes; a plain '…' does not (standard strings).
    const escaped = mysql || (dialect === 'postgresql' && /[eE]/.test(previous) && !/[A-Za-z0-9_$]/.test(sql[index - 2] ?? ''));
    return { open: "'", close: "'", backslashEscapes: escaped };
  }
  if (char === '"') return { open: '"', close: '"', backslashEscapes: mysql };
  if (char === '`' && dialect !== 'postgresql') return { open: '`', close: '`', backslashEscapes: false };
  if (char === '[' && dialect === 'sqlite') return { open: '[', close: ']', backslashEscapes: false };
  return null;
}

/** The index of the quote closing a literal opened before `start`, or -1. A doubled quote is an escape. */
function closingIndex(sql: string, start: number, quote: Quote): number {
  for (let index = start; index < sql.length; index += 1) {
    const char = sql[index];
    if (quote.backslashEscapes && char === '\\') {
      index += 1;
      continue;
    }
    if (char !== quote.close) continue;
    // `[…]` has no escape; `''`, `""` and ``` `` ``` stand for one quote.
    if (quote.open !== '[' && sql[index + 1] === quote.close) {
      index += 1;
      continue;
    }
    return index;
  }
  return -1;
}

/** The `$tag$` opening a PostgreSQL dollar-quoted string at `index`, or null (`$1` is a parameter). */
function dollarTagAt(sql: string, index: number): string | null {
  if (index > 0 && /[A-Za-z0-9_$]/.test(sql[index - 1] as string)) return null;
  const match = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(index, index + 66));
  return match === null ? null : match[0];
}
