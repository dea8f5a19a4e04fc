import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ToolContext, unsupportedCaller, type ToolDefinition, type ToolResult } from '@milpa/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betterSqlite3Database, type ProcessSqlDatabase } from './better-sqlite3-database.js';
import { dbQueryTool } from './db-query-tool.js';

let folder: string;
let database: ProcessSqlDatabase;
let byName: ToolDefinition<{ sql: string }>;
let allowed: ToolDefinition<{ sql: string }>;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'milpa-db-secrets-'));
  const file = join(folder, 'app.db');
  const writer = new Database(file);
  writer.exec(`
    CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, email TEXT, password TEXT, profile TEXT);
    CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER, total REAL);
    CREATE TABLE tokens (id INTEGER PRIMARY KEY, value TEXT);
    INSERT INTO users VALUES (1, 'ana', 'ana@example.com', 'hunter2', '{"password":"hunter2","city":"Oaxaca"}');
    INSERT INTO orders VALUES (1, 1, 9.5), (2, 1, 20);
    INSERT INTO tokens VALUES (1, 'tok-hunter2');
  `);
  writer.close();
  database = betterSqlite3Database(file);
  byName = dbQueryTool({ database, dialect: 'sqlite', timeoutMs: 60_000 });
  allowed = dbQueryTool({ database, dialect: 'sqlite', timeoutMs: 60_000, allow: { users: ['id', 'name'], orders: '*' } });
});

afterAll(async () => {
  await database.close();
  rmSync(folder, { recursive: true, force: true });
});

async function run(definition: ToolDefinition<{ sql: string }>, sql: string): Promise<ToolResult> {
  return (await definition.handler(
    { sql },
    { context: ToolContext.cli(), signal: new AbortController().signal, caller: unsupportedCaller },
  )) as ToolResult;
}

// The four ways a secret column came back under another name.
const RENAMING_TRICKS: [string, string][] = [
  ['a column-renaming WITH', 'WITH u(a, b, c, d, e) AS (SELECT * FROM users) SELECT d FROM u'],
  [
    'a UNION whose first branch names the columns',
    "SELECT 0 AS id, 'x' AS name, 'y' AS email, 'z' AS note, '' AS extra UNION ALL SELECT * FROM users",
  ],
  ["a JSON path built as '$.pass' || 'word'", "SELECT json_extract(profile, '$.pass' || 'word') AS p FROM users"],
  ['json_each', 'SELECT j.key, j.value FROM users, json_each(users.profile) AS j'],
];

describe('db_query and secret columns', () => {
  describe('without an allowlist', () => {
    it.each(RENAMING_TRICKS)('refuses %s and returns no secret', async (_label, sql) => {
      const result = await run(byName, sql);
      expect(result.success).toBe(false);
      expect(['COLUMN_NOT_ALLOWED', 'SECRET_NAME', 'FORBIDDEN_FUNCTION']).toContain(result.meta['code']);
      expect(JSON.stringify(result)).not.toContain('hunter2');
    });

    it('still answers plain queries, a WITH and a UNION that name their columns', async () => {
      expect((await run(byName, 'SELECT id, name FROM users')).data).toMatchObject({ rows: [{ id: 1, name: 'ana' }] });
      const cte = await run(byName, 'WITH u(a, b) AS (SELECT id, name FROM users) SELECT b FROM u');
      expect(cte.data).toMatchObject({ rows: [{ b: 'ana' }] });
      const union = await run(byName, "SELECT name FROM users UNION ALL SELECT 'x'");
      expect(union.data).toMatchObject({ row_count: 2 });
      expect((await run(byName, "SELECT json_extract(profile, '$.city') AS city FROM users")).data).toMatchObject({
        rows: [{ city: 'Oaxaca' }],
      });
    });
  });

  describe('with an allowlist', () => {
    it.each(RENAMING_TRICKS)('refuses %s and returns no secret', async (_label, sql) => {
      const result = await run(allowed, sql);
      expect(result.success).toBe(false);
      expect(['COLUMN_NOT_ALLOWED', 'TABLE_NOT_ALLOWED', 'SECRET_NAME', 'FORBIDDEN_FUNCTION']).toContain(result.meta['code']);
      expect(JSON.stringify(result)).not.toContain('hunter2');
    });

    it.each([
      ['a table not listed', 'SELECT value FROM tokens', 'TABLE_NOT_ALLOWED', /'tokens' is not one this tool may read/],
      ['a column not listed', 'SELECT email FROM users', 'COLUMN_NOT_ALLOWED', /'email' is not one this tool may read from 'users'/],
      ['a column not listed, only in WHERE', "SELECT id FROM users WHERE email LIKE 'ana%'", 'COLUMN_NOT_ALLOWED', /'email'/],
      [
        'a column not listed, in JOIN … ON',
        'SELECT o.total FROM orders o JOIN users u ON u.email = o.id',
        'COLUMN_NOT_ALLOWED',
        /'u\.email'/,
      ],
      ['* over a table with listed columns', 'SELECT * FROM users', 'COLUMN_NOT_ALLOWED', /\* would read every column of 'users'/],
      ['u.* over a table with listed columns', 'SELECT u.* FROM users u JOIN orders o ON o.user_id = u.id', 'COLUMN_NOT_ALLOWED', /\*/],
      ['a column reached through a subquery', 'SELECT x FROM (SELECT email AS x FROM users)', 'COLUMN_NOT_ALLOWED', /'email'/],
      [
        'a correlated subquery reading a column not listed',
        'SELECT id FROM orders WHERE EXISTS (SELECT 1 FROM users WHERE users.email = orders.id)',
        'COLUMN_NOT_ALLOWED',
        /email/,
      ],
      [
        'an unqualified column that could come from either table',
        'SELECT total FROM users JOIN orders ON orders.user_id = users.id',
        'COLUMN_NOT_ALLOWED',
        /qualify/,
      ],
      ['a qualifier that names no table', 'SELECT x.id FROM users', 'COLUMN_NOT_ALLOWED', /names no table/],
      ['JOIN … USING a column not listed', 'SELECT users.id FROM users JOIN orders USING (email)', 'COLUMN_NOT_ALLOWED', /email/],
      ['rowid', 'SELECT rowid FROM users', 'COLUMN_NOT_ALLOWED', /rowid/],
      ['a double-quoted column, which SQLite reads as a name', 'SELECT "email" FROM users', 'COLUMN_NOT_ALLOWED', /'email'/],
    ])('refuses %s', async (_label, sql, code, message) => {
      const result = await run(allowed, sql);
      expect(result.meta['code']).toBe(code);
      expect(result.error).toMatch(message);
    });

    it('answers queries over what is listed: * over an allowed-* table, aliases, CTEs, subqueries and ORDER BY an alias', async () => {
      expect((await run(allowed, 'SELECT * FROM orders ORDER BY id')).data).toMatchObject({ row_count: 2 });
      const joined = await run(
        allowed,
        'SELECT u.name, sum(o.total) AS spent FROM users u JOIN orders o ON o.user_id = u.id GROUP BY u.name ORDER BY spent',
      );
      expect(joined.data).toMatchObject({ rows: [{ name: 'ana', spent: 29.5 }] });
      const cte = await run(allowed, 'WITH big AS (SELECT * FROM orders WHERE total > 10) SELECT big.id FROM big');
      expect(cte.data).toMatchObject({ rows: [{ id: 2 }] });
      const nested = await run(allowed, 'SELECT name FROM users WHERE id IN (SELECT orders.user_id FROM orders)');
      expect(nested.data).toMatchObject({ rows: [{ name: 'ana' }] });
    });

    it('reads a JSON column only when the column is listed', async () => {
      const withProfile = dbQueryTool({ database, dialect: 'sqlite', timeoutMs: 60_000, allow: { users: ['id', 'profile'] } });
      const result = await run(withProfile, "SELECT json_extract(profile, '$.city') AS city FROM users");
      expect(result.data).toMatchObject({ rows: [{ city: 'Oaxaca' }] });
      expect((await run(allowed, "SELECT json_extract(profile, '$.city') FROM users")).meta['code']).toBe('COLUMN_NOT_ALLOWED');
    });

    it('names the allowed tables and columns in the description', () => {
      expect(allowed.description).toContain('users(id, name), orders(*)');
    });

    it('throws INVALID_ARGUMENT for a malformed allowlist', () => {
      expect(() => dbQueryTool({ database, dialect: 'sqlite', allow: {} })).toThrow(/at least one table/);
      expect(() => dbQueryTool({ database, dialect: 'sqlite', allow: { users: [] } })).toThrow(/allow\.users/);
      expect(() => dbQueryTool({ database, dialect: 'sqlite', allow: { users: 'id' as '*' } })).toThrow(/allow\.users/);
    });
  });
});
