import { describe, expect, it } from 'vitest';
import { SQL_MAX_LENGTH, checkSqlQuery } from './check-sql-query.js';
import type { SqlDialect } from './sql-dialect.js';

describe('checkSqlQuery', () => {
  describe('accepted queries', () => {
    it.each<[SqlDialect, string]>([
      ['sqlite', 'SELECT id, name FROM users WHERE id = 1 ORDER BY name DESC, id ASC LIMIT 10 OFFSET 2'],
      ['sqlite', "SELECT CASE WHEN a > 1 THEN 'x' ELSE 'y' END AS c, CAST(b AS TEXT) FROM t"],
      ['sqlite', 'SELECT a, count(*) OVER (PARTITION BY b ORDER BY c DESC) FROM t GROUP BY a HAVING count(*) > 1'],
      ['sqlite', 'SELECT * FROM t JOIN u ON t.id = u.tid WHERE EXISTS (SELECT 1 FROM v WHERE v.a = t.a)'],
      ['sqlite', 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 5 LIMIT 100) SELECT n FROM c'],
      ['sqlite', "SELECT '--' AS x, ';' AS y;"],
      ['mysql', 'SELECT * FROM `t` WHERE `a` = "x" UNION SELECT a, b FROM u'],
      ['mysql', "SELECT 'a\\'; DROP TABLE t; --' AS x"],
      ['postgresql', 'SELECT a FROM t WHERE b = $1 ORDER BY a DESC'],
      ['postgresql', "SELECT now() - interval '1 day', a::text FROM t"],
      ['postgresql', 'SELECT $$a;--$$ AS x'],
    ])('accepts %s: %s', async (dialect, sql) => {
      expect(await checkSqlQuery(sql, dialect)).toEqual({ ok: true });
    });
  });

  describe('refusals', () => {
    it.each<[string, SqlDialect, string, string, RegExp]>([
      ['an empty query', 'sqlite', '  ', 'INVALID_SQL', /non-empty/],
      ['a NUL byte', 'sqlite', 'SELECT 1\0', 'INVALID_SQL', /control character/],
      ['a -- comment', 'sqlite', 'SELECT 1 --', 'SQL_COMMENT', /'--'/],
      ['a /* */ comment', 'postgresql', 'SELECT /**/ 1', 'SQL_COMMENT', /'\/\*'/],
      ['a # comment in MySQL', 'mysql', 'SELECT 1 # x', 'SQL_COMMENT', /'#'/],
      ['a second statement', 'sqlite', 'SELECT 1; DROP TABLE t', 'MULTIPLE_STATEMENTS', /Only one statement/],
      [
        'a second statement after a MySQL escaped quote',
        'sqlite',
        "SELECT 'a\\'; DROP TABLE t",
        'MULTIPLE_STATEMENTS',
        /Only one statement/,
      ],
      ['an unterminated string', 'sqlite', "SELECT 'abc", 'SQL_PARSE_ERROR', /never closed/],
      ['unparsable text', 'sqlite', 'SELEC 1', 'SQL_PARSE_ERROR', /could not be parsed as sqlite SQL/],
      ['an UPDATE', 'sqlite', 'UPDATE t SET a = 1', 'NOT_A_SELECT', /An UPDATE statement is not a SELECT/],
      ['INSERT … SELECT', 'sqlite', 'INSERT INTO t SELECT * FROM u', 'NOT_A_SELECT', /An INSERT statement/],
      ['ATTACH', 'sqlite', "ATTACH DATABASE 'x.db' AS x", 'NOT_A_SELECT', /An ATTACH statement/],
      ['WITH … DELETE', 'mysql', 'WITH x AS (SELECT 1) DELETE FROM t', 'NOT_A_SELECT', /A DELETE statement/],
      [
        'an INSERT inside a CTE',
        'postgresql',
        'WITH x AS (INSERT INTO t VALUES (1) RETURNING *) SELECT * FROM x',
        'NOT_A_SELECT',
        /An INSERT statement is nested/,
      ],
      ['INTO OUTFILE', 'mysql', "SELECT * FROM t INTO OUTFILE '/tmp/x'", 'SELECT_INTO', /INTO OUTFILE/],
      ['INTO DUMPFILE', 'mysql', "SELECT a FROM t INTO DUMPFILE '/tmp/x'", 'SELECT_INTO', /INTO DUMPFILE/],
      ['INTO a variable', 'mysql', 'SELECT 1 INTO @x', 'SELECT_INTO', /INTO/],
      ['INTO a new table', 'postgresql', 'SELECT * INTO copy FROM t', 'SELECT_INTO', /INTO/],
      ['FOR UPDATE', 'mysql', 'SELECT * FROM t FOR UPDATE', 'LOCKING_CLAUSE', /FOR UPDATE locks rows/],
      ['LOCK IN SHARE MODE', 'mysql', 'SELECT * FROM t LOCK IN SHARE MODE', 'LOCKING_CLAUSE', /LOCK IN SHARE MODE/],
      ['FOR SHARE, which the grammar does not read', 'postgresql', 'SELECT * FROM t FOR SHARE', 'SQL_PARSE_ERROR', /could not be parsed/],
      ['LOAD_FILE', 'mysql', "SELECT LOAD_FILE('/etc/hosts')", 'FORBIDDEN_FUNCTION', /load_file\(\)/],
      ['SLEEP in a WHERE', 'mysql', 'SELECT a FROM t WHERE SLEEP(10) = 0', 'FORBIDDEN_FUNCTION', /sleep\(\)/],
      [
        'a schema-qualified pg_read_file',
        'postgresql',
        "SELECT pg_catalog.pg_read_file('/etc/hosts')",
        'FORBIDDEN_FUNCTION',
        /pg_read_file\(\)/,
      ],
      ['dblink', 'postgresql', "SELECT * FROM t WHERE a IN (SELECT dblink('host=x', 'select 1'))", 'FORBIDDEN_FUNCTION', /dblink\(\)/],
      [
        'INFORMATION_SCHEMA',
        'mysql',
        'SELECT table_name FROM INFORMATION_SCHEMA.TABLES',
        'SYSTEM_CATALOG',
        /'information_schema' is a system catalog/,
      ],
      [
        'information_schema in a subquery',
        'postgresql',
        'SELECT a FROM t WHERE a IN (SELECT column_name FROM information_schema.columns)',
        'SYSTEM_CATALOG',
        /information_schema/,
      ],
      ['mysql.user', 'mysql', 'SELECT user FROM mysql.user', 'SYSTEM_CATALOG', /'mysql'/],
      ['pg_shadow without a schema', 'postgresql', 'SELECT usename FROM pg_shadow', 'SYSTEM_CATALOG', /'pg_shadow'/],
      ['a password column', 'mysql', 'SELECT user_password FROM users', 'SECRET_NAME', /'user_password' names a secret/],
      ['a camel-case key column', 'postgresql', 'SELECT "privateKey" FROM keys', 'SECRET_NAME', /privateKey/],
      ['a secret in a UNION branch', 'sqlite', 'SELECT name FROM a UNION SELECT auth_token FROM b', 'SECRET_NAME', /auth_token/],
      ['a secret table', 'sqlite', 'SELECT * FROM secrets', 'SECRET_NAME', /secrets/],
      ['a secret in a string', 'sqlite', "SELECT 'PASSWD'", 'SECRET_NAME', /PASSWD/],
    ])('refuses %s', async (_label, dialect, sql, code, message) => {
      const check = await checkSqlQuery(sql, dialect);
      expect(check).toMatchObject({ ok: false, code });
      expect(check.ok === false && check.message).toMatch(message);
    });

    it(`refuses more than ${SQL_MAX_LENGTH} characters`, async () => {
      expect(await checkSqlQuery(`SELECT ${'1+'.repeat(SQL_MAX_LENGTH)}1`, 'sqlite')).toMatchObject({ ok: false, code: 'INVALID_SQL' });
    });

    it('reports the most important of several problems', async () => {
      expect(await checkSqlQuery("SELECT password FROM t INTO OUTFILE '/tmp/x'", 'mysql')).toMatchObject({ code: 'SELECT_INTO' });
    });
  });
});
