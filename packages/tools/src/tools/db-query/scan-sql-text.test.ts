import { describe, expect, it } from 'vitest';
import { scanSqlText } from './scan-sql-text.js';

describe('scanSqlText', () => {
  it.each([
    ['sqlite', "SELECT '--', '/*', '#', ';' FROM t"],
    ['sqlite', 'SELECT "a--b", [c;d], `e#f` FROM t;'],
    ['sqlite', "SELECT 'it''s -- fine'"],
    ['sqlite', 'SELECT 1;  \n '],
    ['mysql', "SELECT 'a\\' -- still a string'"],
    ['mysql', 'SELECT "a\\" ; still a string"'],
    ['postgresql', "SELECT E'a\\' -- still a string'"],
    ['postgresql', 'SELECT $tag$ -- ; $$ $tag$, $1'],
  ] as const)('finds nothing in %s: %s', (dialect, sql) => {
    expect(scanSqlText(sql, dialect)).toBeNull();
  });

  it.each([
    ['sqlite', 'SELECT 1 -- x', { kind: 'comment', marker: '--', offset: 9 }],
    ['sqlite', 'SELECT 1--1', { kind: 'comment', marker: '--', offset: 8 }],
    ['sqlite', 'SELECT /* x */ 1', { kind: 'comment', marker: '/*', offset: 7 }],
    ['postgresql', 'SELECT 1 # 2', { kind: 'comment', marker: '#', offset: 9 }],
    ['sqlite', "SELECT 'a'; SELECT 2", { kind: 'statement-separator', offset: 10 }],
    ['sqlite', 'SELECT 1;;', { kind: 'statement-separator', offset: 8 }],
    ['sqlite', "SELECT 'a\\'; DROP TABLE t", { kind: 'statement-separator', offset: 11 }],
    ['postgresql', "SELECT 'a\\'; DROP TABLE t", { kind: 'statement-separator', offset: 11 }],
    ['sqlite', "SELECT 'open", { kind: 'unterminated', quote: "'", offset: 7 }],
    ['postgresql', 'SELECT $x$ open', { kind: 'unterminated', quote: '$x$', offset: 7 }],
    ['sqlite', 'SELECT 1\u0000', { kind: 'control-character', offset: 8 }],
  ] as const)('finds the first problem in %s: %j', (dialect, sql, finding) => {
    expect(scanSqlText(sql, dialect)).toEqual(finding);
  });
});
