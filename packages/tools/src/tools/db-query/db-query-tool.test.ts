import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ToolContext, unsupportedCaller, type ToolDefinition, type ToolResult } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betterSqlite3Database, type ProcessSqlDatabase } from './better-sqlite3-database.js';
import { DB_QUERY_MAX_BYTES, DB_QUERY_MAX_ROWS, dbQueryTool } from './db-query-tool.js';

let folder: string;
let file: string;
let reader: Database.Database;
let tool: ToolDefinition<{ sql: string }>;
let database: ProcessSqlDatabase;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'milpa-db-query-test-'));
  file = join(folder, 'shop.db');
  const writer = new Database(file);
  writer.exec(`
    CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, note TEXT);
    CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, password TEXT);
    CREATE TABLE logs (id INTEGER PRIMARY KEY, line TEXT NOT NULL);
    INSERT INTO users (name, password) VALUES ('ana', 'hunter2'), ('bo', NULL);
  `);
  const insertItem = writer.prepare('INSERT INTO items (name, note) VALUES (?, ?)');
  for (let index = 1; index <= 3; index += 1) insertItem.run(`item ${index}`, index === 2 ? null : `note ${index}`);
  const insertLog = writer.prepare('INSERT INTO logs (line) VALUES (?)');
  for (let index = 1; index <= 150; index += 1) insertLog.run(`line ${String(index).padStart(3, '0')} ${'x'.repeat(100)}`);
  writer.close();
  // The tool only ever sees a read-only connection.
  reader = new Database(file, { readonly: true, fileMustExist: true });
  database = betterSqlite3Database(reader);
  tool = dbQueryTool({ database, dialect: 'sqlite', spillDirectory: folder, timeoutMs: 60_000 });
});

afterAll(async () => {
  await database.close();
  reader.close();
  rmSync(folder, { recursive: true, force: true });
});

async function run(sql: string, definition: ToolDefinition<{ sql: string }> = tool): Promise<ToolResult> {
  const invocation = { context: ToolContext.cli(), signal: new AbortController().signal, caller: unsupportedCaller };
  return (await definition.handler({ sql }, invocation)) as ToolResult;
}

function countsOf(): Record<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { items: count('items'), users: count('users'), logs: count('logs'), tables: count('sqlite_master') };
  } finally {
    db.close();
  }
}

describe('dbQueryTool', () => {
  describe('definition', () => {
    it('declares a read-only tool with db:read, routing and a closed input schema', () => {
      expect(tool.name).toBe('db_query');
      expect(tool.mutating).toBe(false);
      expect(tool.scopes).toEqual(['db:read']);
      expect(tool.inputSchema).toMatchObject({ additionalProperties: false, required: ['sql'] });
      expect(tool.routing?.domains).toContain('database');
      expect(tool.description).toContain('SELECT');
    });

    it('takes other scopes and a schema summary when given', () => {
      const custom = dbQueryTool({
        database: betterSqlite3Database(reader),
        dialect: 'sqlite',
        scopes: ['shop:read'],
        schemaSummary: 'items(id, name, note)',
      });
      expect(custom.scopes).toEqual(['shop:read']);
      expect(custom.description).toContain('Tables: items(id, name, note)');
    });

    it('throws INVALID_ARGUMENT for an unknown dialect or a database without query', () => {
      expect(() => dbQueryTool({ database: betterSqlite3Database(reader), dialect: 'oracle' as 'sqlite' })).toThrow(/dialect/);
      expect(() => dbQueryTool({ database: {} as never, dialect: 'sqlite' })).toThrow(/query/);
    });
  });

  describe('allowed queries', () => {
    it('returns the rows and columns of a SELECT', async () => {
      const result = await run('SELECT id, name, note FROM items ORDER BY id');
      expect(result.success).toBe(true);
      expect(result.data).toEqual({
        columns: ['id', 'name', 'note'],
        rows: [
          { id: 1, name: 'item 1', note: 'note 1' },
          { id: 2, name: 'item 2', note: null },
          { id: 3, name: 'item 3', note: 'note 3' },
        ],
        row_count: 3,
        truncated: false,
      });
      expect(result.meta['warnings']).toEqual([]);
    });

    it('runs a UNION and a WITH … SELECT, with one trailing semicolon', async () => {
      const union = await run("SELECT name FROM items WHERE id = 1 UNION ALL SELECT 'extra';");
      expect((union.data as { rows: unknown[] }).rows).toEqual([{ name: 'item 1' }, { name: 'extra' }]);
      const cte = await run('WITH cheap AS (SELECT id FROM items WHERE id < 3) SELECT count(*) AS n FROM cheap');
      expect((cte.data as { rows: unknown[] }).rows).toEqual([{ n: 2 }]);
    });

    it("does not mistake '--' or ';' inside a string for a comment or a second statement", async () => {
      const result = await run("SELECT '--' AS dashes, ';' AS semi, '/* x */' AS block");
      expect(result.success).toBe(true);
      expect((result.data as { rows: unknown[] }).rows).toEqual([{ dashes: '--', semi: ';', block: '/* x */' }]);
    });

    it('redacts values of a secret column that SELECT * brings along', async () => {
      const result = await run('SELECT * FROM users ORDER BY id');
      expect((result.data as { rows: unknown[] }).rows).toEqual([
        { id: 1, name: 'ana', password: '[redacted]' },
        { id: 2, name: 'bo', password: null },
      ]);
      expect(JSON.stringify(result)).not.toContain('hunter2');
      expect(result.meta['warnings']).toEqual([expect.stringContaining("'password'")]);
    });
  });

  describe('refusals', () => {
    it.each([
      ['a line comment', 'SELECT 1 -- note', 'SQL_COMMENT'],
      ['a block comment', 'SELECT /* x */ 1', 'SQL_COMMENT'],
      ['a # comment', 'SELECT 1 # note', 'SQL_COMMENT'],
      ['two statements', 'SELECT 1; SELECT 2', 'MULTIPLE_STATEMENTS'],
      ['an unparsable query', 'SELEC 1', 'SQL_PARSE_ERROR'],
      ['load_extension', "SELECT load_extension('/tmp/evil.so')", 'FORBIDDEN_FUNCTION'],
      ['readfile in a subquery', "SELECT * FROM items WHERE name IN (SELECT readfile('/etc/passwd'))", 'FORBIDDEN_FUNCTION'],
      ['fts3_tokenizer', "SELECT fts3_tokenizer('simple')", 'FORBIDDEN_FUNCTION'],
      ['sqlite_master', 'SELECT sql FROM sqlite_master', 'SYSTEM_CATALOG'],
      ['a pragma table function', "SELECT * FROM pragma_table_info('users')", 'FORBIDDEN_FUNCTION'],
      ['a secret column', 'SELECT password FROM users', 'SECRET_NAME'],
      ['a secret column inside a CTE', 'WITH u AS (SELECT password AS p FROM users) SELECT p FROM u', 'SECRET_NAME'],
      ['a secret alias', 'SELECT name AS api_key FROM users', 'SECRET_NAME'],
      ['a secret JSON path in a string', "SELECT json_extract(note, '$.access_token') FROM items", 'SECRET_NAME'],
      ["a string that names a secret ('password')", "SELECT 'password'", 'SECRET_NAME'],
    ])('refuses %s', async (_label, sql, code) => {
      const result = await run(sql);
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe(code);
      expect(result.error).toMatch(/\w{3,}/);
    });

    it('refuses with messages that say what to change', async () => {
      expect((await run('SELECT 1 -- x')).error).toMatch(/Comments are not accepted .*remove them/);
      expect((await run('SELECT 1; SELECT 2')).error).toMatch(/Only one statement/);
      expect((await run('SELECT password FROM users')).error).toMatch(/'password' names a secret/);
      expect((await run('SELECT sql FROM sqlite_master')).error).toMatch(/'sqlite_master' is a system catalog/);
    });

    it.each([
      ['SELECT 1; DROP TABLE items'],
      ['SELECT 1;DROP TABLE items;'],
      ['WITH x AS (SELECT 1) DELETE FROM items'],
      ['INSERT INTO items (name) SELECT name FROM items'],
      ['UPDATE items SET name = 1'],
      ['DELETE FROM items'],
      ['REPLACE INTO items (id, name) VALUES (1, 2)'],
      ['DROP TABLE logs'],
      ['CREATE TABLE evil (x)'],
      ['PRAGMA writable_schema = 1'],
      ["ATTACH DATABASE '/tmp/evil.db' AS evil"],
      ["VACUUM INTO '/tmp/copy.db'"],
      ['SELECT * FROM items; INSERT INTO items (name) VALUES (1)'],
      ["SELECT 'a''b'; DELETE FROM items"],
    ])('refuses the write %j and leaves the database unchanged', async (sql) => {
      const before = countsOf();
      const result = await run(sql);
      expect(result.success).toBe(false);
      expect(['MULTIPLE_STATEMENTS', 'NOT_A_SELECT', 'SQL_PARSE_ERROR']).toContain(result.meta['code']);
      expect(countsOf()).toEqual(before);
    });

    it('reports QUERY_FAILED with the database message for a missing table', async () => {
      const result = await run('SELECT * FROM nowhere');
      expect(result.meta['code']).toBe('QUERY_FAILED');
      expect(result.error).toContain('no such table: nowhere');
    });
  });

  describe('caps', () => {
    it(`returns at most ${DB_QUERY_MAX_ROWS} rows and says more were left out`, async () => {
      const result = await run('SELECT id FROM logs ORDER BY id');
      const data = result.data as { rows: { id: number }[]; row_count: number; truncated: boolean };
      expect(data.rows).toHaveLength(DB_QUERY_MAX_ROWS);
      expect(data.rows.at(-1)).toEqual({ id: 100 });
      expect(data).toMatchObject({ row_count: 100, truncated: true });
      expect(result.meta['warnings']).toEqual([expect.stringContaining('first 100 rows')]);
    });

    it('reports truncated false when the result has exactly the cap', async () => {
      const result = await run('SELECT id FROM logs WHERE id <= 100');
      expect(result.data).toMatchObject({ row_count: 100, truncated: false });
    });

    it(`returns a preview under ${DB_QUERY_MAX_BYTES} bytes and every row in a 0600 JSON Lines spill file`, async () => {
      const result = await run('SELECT id, line FROM logs WHERE id <= 80 ORDER BY id');
      const data = result.data as { rows: { id: number }[]; row_count: number; spill_path: string };
      expect(result.success).toBe(true);
      expect(data.row_count).toBe(80);
      expect(data.rows.length).toBeGreaterThan(0);
      expect(data.rows.length).toBeLessThan(80);
      expect(Buffer.byteLength(JSON.stringify(data.rows))).toBeLessThanOrEqual(DB_QUERY_MAX_BYTES);
      expect(data.spill_path.startsWith(folder)).toBe(true);
      expect(statSync(data.spill_path).mode & 0o777).toBe(0o600);
      const lines = readFileSync(data.spill_path, 'utf8').trimEnd().split('\n');
      expect(lines).toHaveLength(80);
      expect(JSON.parse(lines[0] as string)).toEqual({ id: 1, line: `line 001 ${'x'.repeat(100)}` });
      expect(JSON.parse(lines[79] as string)).toMatchObject({ id: 80 });
      expect(result.meta['warnings']).toEqual([expect.stringContaining('spill_path')]);
    });

    it('spills into a new private folder under the OS temp folder without spillDirectory', async () => {
      const plain = dbQueryTool({ database: betterSqlite3Database(reader), dialect: 'sqlite' });
      const data = (await run('SELECT line FROM logs', plain)).data as { spill_path: string };
      try {
        expect(data.spill_path.startsWith(tmpdir())).toBe(true);
        expect(readFileSync(data.spill_path, 'utf8').trimEnd().split('\n')).toHaveLength(100);
      } finally {
        rmSync(join(data.spill_path, '..'), { recursive: true, force: true });
      }
    });
  });

  describe('betterSqlite3Database', () => {
    it('throws INVALID_ARGUMENT for a connection that is not read-only', () => {
      const writable = new Database(':memory:');
      try {
        expect(() => betterSqlite3Database(writable)).toThrow(/readonly: true/);
      } finally {
        writable.close();
      }
    });

    it('refuses a statement SQLite reports as writing, even past the SQL check', async () => {
      const database = betterSqlite3Database(reader);
      const signal = new AbortController().signal;
      try {
        await expect(database.query('DELETE FROM items', { maxRows: 5, signal })).rejects.toThrow(/returns no rows/);
        await expect(database.query('DELETE FROM items RETURNING id', { maxRows: 5, signal })).rejects.toThrow(/writes/);
        await expect(database.query('PRAGMA user_version = 3', { maxRows: 5, signal })).rejects.toThrow();
        expect(countsOf().items).toBe(3);
      } finally {
        await database.close();
      }
    });

    it('stops reading at maxRows', async () => {
      const database = betterSqlite3Database(reader);
      try {
        const rows = await database.query('SELECT id FROM logs', { maxRows: 7, signal: new AbortController().signal });
        expect(rows).toHaveLength(7);
      } finally {
        await database.close();
      }
    });
  });

  describe('through a ToolRegistry', () => {
    it('answers a cli caller and denies a web caller without db:read', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(tool);
      const allowed = await registry.call('db_query', { sql: 'SELECT count(*) AS n FROM items' }, ToolContext.cli());
      expect(allowed.success).toBe(true);
      expect((allowed.data as { rows: unknown[] }).rows).toEqual([{ n: 3 }]);
      const refused = await registry.call('db_query', { sql: 'SELECT 1; DROP TABLE items' }, ToolContext.cli());
      expect(refused.meta['code']).toBe('MULTIPLE_STATEMENTS');
      const denied = await registry.call('db_query', { sql: 'SELECT 1' }, ToolContext.web('user:1', []));
      expect(denied.success).toBe(false);
      const granted = await registry.call('db_query', { sql: 'SELECT 1 AS one' }, ToolContext.web('user:1', ['db:read']));
      expect((granted.data as { rows: unknown[] }).rows).toEqual([{ one: 1 }]);
    });

    it('rejects an unknown argument', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(tool);
      const result = await registry.call('db_query', { sql: 'SELECT 1', limit: 5 }, ToolContext.cli());
      expect(result.success).toBe(false);
    });
  });
});
