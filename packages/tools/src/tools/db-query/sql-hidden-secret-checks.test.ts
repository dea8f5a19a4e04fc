import { describe, expect, it } from 'vitest';
import { checkSqlQuery } from './check-sql-query.js';
import type { SqlDialect } from './sql-dialect.js';

describe('checkSqlQuery', () => {
  describe('secret columns under other names, without an allowlist', () => {
    it.each<[string, SqlDialect, string, string]>([
      ['* in a CTE with a column list', 'sqlite', 'WITH u(a, b, c) AS (SELECT * FROM users) SELECT c FROM u', 'COLUMN_NOT_ALLOWED'],
      ['* in a CTE without one', 'postgresql', 'WITH u AS (SELECT * FROM users) SELECT u.c FROM u', 'COLUMN_NOT_ALLOWED'],
      ['* in a later UNION branch', 'mysql', 'SELECT 1, 2, 3 UNION SELECT * FROM users', 'COLUMN_NOT_ALLOWED'],
      ['t.* in a subquery', 'sqlite', 'SELECT x FROM (SELECT u.* FROM users u) AS s', 'COLUMN_NOT_ALLOWED'],
      ['a computed json_extract path', 'sqlite', "SELECT json_extract(data, '$.pass' || 'word') FROM t", 'SECRET_NAME'],
      ['a computed ->> path', 'sqlite', "SELECT data ->> ('$.pass' || 'word') FROM t", 'SECRET_NAME'],
      ['a computed path from a column', 'mysql', 'SELECT JSON_EXTRACT(data, t.path) FROM t', 'SECRET_NAME'],
      ['json_each', 'sqlite', 'SELECT value FROM json_each((SELECT data FROM t))', 'FORBIDDEN_FUNCTION'],
      ['json_tree', 'sqlite', 'SELECT j.value FROM t, json_tree(t.data) AS j', 'FORBIDDEN_FUNCTION'],
      ['a whole-row reference', 'postgresql', 'SELECT u FROM users u', 'COLUMN_NOT_ALLOWED'],
      ['row_to_json over a table alias', 'postgresql', 'SELECT row_to_json(u) FROM users u', 'COLUMN_NOT_ALLOWED'],
    ])('refuses %s', async (_label, dialect, sql, code) => {
      expect(await checkSqlQuery(sql, dialect)).toMatchObject({ ok: false, code });
    });

    it.each<[SqlDialect, string]>([
      ['sqlite', 'SELECT * FROM users'],
      ['sqlite', 'SELECT * FROM users UNION SELECT 1, 2, 3'],
      ['sqlite', 'SELECT count(*) FROM (SELECT id FROM users)'],
      ['sqlite', "SELECT json_extract(data, '$.city'), data ->> '$.zip' FROM t"],
      ['postgresql', 'SELECT u.name FROM users u'],
    ])('accepts %s: %s', async (dialect, sql) => {
      expect(await checkSqlQuery(sql, dialect)).toEqual({ ok: true });
    });
  });

  describe('with an allowlist', () => {
    const allow = { users: ['id', 'name'], orders: '*' } as const;

    it.each<[SqlDialect, string, string]>([
      ['postgresql', 'SELECT u FROM users u', 'COLUMN_NOT_ALLOWED'],
      ['postgresql', 'SELECT email FROM public.users', 'COLUMN_NOT_ALLOWED'],
      ['mysql', 'SELECT `users`.`email` FROM `users`', 'COLUMN_NOT_ALLOWED'],
      ['sqlite', 'SELECT id FROM users NATURAL JOIN orders', 'COLUMN_NOT_ALLOWED'],
      ['sqlite', 'SELECT id FROM payments', 'TABLE_NOT_ALLOWED'],
      ['sqlite', 'SELECT "email" FROM users', 'COLUMN_NOT_ALLOWED'],
      ['sqlite', 'SELECT id FROM users WHERE "email" IS NOT NULL', 'COLUMN_NOT_ALLOWED'],
      ['postgresql', 'SELECT "email" FROM users', 'COLUMN_NOT_ALLOWED'],
      ['sqlite', 'WITH x AS (SELECT id FROM payments) SELECT id FROM x', 'TABLE_NOT_ALLOWED'],
      ['sqlite', 'SELECT name FROM users ORDER BY email', 'COLUMN_NOT_ALLOWED'],
      ['sqlite', "SELECT name AS email FROM users ORDER BY email || ''", 'COLUMN_NOT_ALLOWED'],
      ['sqlite', 'SELECT name AS email FROM users WHERE email IS NULL', 'COLUMN_NOT_ALLOWED'],
    ])('refuses in %s: %s', async (dialect, sql, code) => {
      expect(await checkSqlQuery(sql, dialect, { allow })).toMatchObject({ ok: false, code });
    });

    it.each<[SqlDialect, string]>([
      ['sqlite', 'SELECT id, name FROM users WHERE id = 1 ORDER BY name'],
      ['sqlite', 'SELECT name AS n FROM users ORDER BY n'],
      ['sqlite', 'SELECT * FROM orders UNION ALL SELECT * FROM orders'],
      ['sqlite', 'SELECT o.* , u.name FROM orders o JOIN users u ON u.id = o.user_id'],
      ['sqlite', 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 3) SELECT n FROM c'],
      ['postgresql', 'SELECT users.name FROM public.users'],
      ['mysql', 'SELECT count(*) FROM users'],
    ])('accepts in %s: %s', async (dialect, sql) => {
      expect(await checkSqlQuery(sql, dialect, { allow })).toEqual({ ok: true });
    });
  });
});
