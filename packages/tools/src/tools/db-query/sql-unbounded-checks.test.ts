import { describe, expect, it } from 'vitest';
import { checkSqlQuery } from './check-sql-query.js';
import type { SqlDialect } from './sql-dialect.js';

describe('checkSqlQuery', () => {
  describe('unbounded work', () => {
    it.each<[string, SqlDialect, string, RegExp]>([
      [
        'a recursive WITH without LIMIT',
        'sqlite',
        'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c',
        /recursive WITH 'c' has no LIMIT/,
      ],
      [
        'a self-referencing WITH without the RECURSIVE keyword',
        'sqlite',
        'WITH c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT n FROM c LIMIT 5',
        /has no LIMIT/,
      ],
      [
        'LIMIT -1, which SQLite reads as no limit',
        'sqlite',
        'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT -1) SELECT n FROM c',
        /LIMIT/,
      ],
      ['zeroblob(300000000)', 'sqlite', 'SELECT zeroblob(300000000)', /zeroblob\(\) builds a value of any size/],
      ['randomblob(1e9)', 'sqlite', 'SELECT hex(randomblob(1e9)) AS x', /randomblob\(\)/],
      ['repeat', 'postgresql', "SELECT repeat('x', 1000000000)", /repeat\(\)/],
      ['a printf * precision', 'sqlite', "SELECT printf('%.*c', 1000000000, 'x')", /width or precision '%\.\*c'/],
      ['a printf width over the cap', 'sqlite', "SELECT printf('%2000000000d', 1)", /printf\(\) with the width/],
      ['a format with a * width', 'sqlite', "SELECT format('%*d', 1000000000, 1)", /format\(\)/],
      ['a computed printf format', 'sqlite', "SELECT printf('%' || '999999999d', 1)", /format as a string literal/],
      [
        'a computed replace replacement',
        'sqlite',
        "WITH a(s) AS (SELECT 'xxxxxxxxxx') SELECT replace(s, 'x', s) FROM a",
        /replace\(\) with a computed/,
      ],
      ['lpad to a huge length', 'postgresql', "SELECT lpad('x', 1000000000)", /lpad\(\)/],
    ])('refuses %s with UNBOUNDED_QUERY', async (_label, dialect, sql, message) => {
      const check = await checkSqlQuery(sql, dialect);
      expect(check).toMatchObject({ ok: false, code: 'UNBOUNDED_QUERY' });
      expect(check.ok === false && check.message).toMatch(message);
    });

    it.each<[SqlDialect, string]>([
      ['sqlite', 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 30000000) SELECT count(*) FROM c'],
      ['sqlite', 'WITH t(a) AS (SELECT 1) SELECT a FROM t'],
      ['sqlite', "SELECT printf('%5.2f and %-10s', 3.14159, 'x'), replace('a-b', '-', '+')"],
      ['postgresql', "SELECT lpad('7', 3, '0')"],
    ])('accepts bounded work in %s: %s', async (dialect, sql) => {
      expect(await checkSqlQuery(sql, dialect)).toEqual({ ok: true });
    });
  });
});
