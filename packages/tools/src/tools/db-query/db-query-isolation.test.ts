import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ToolContext, unsupportedCaller, type ToolDefinition, type ToolResult } from '@milpa/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betterSqlite3Database, type ProcessSqlDatabase } from './better-sqlite3-database.js';
import { dbQueryTool } from './db-query-tool.js';

// 30 million rows: 8–18 s of SQLite work in one step, which blocked the host when it ran in-thread.
const SLOW = 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c LIMIT 30000000) SELECT count(*) AS n FROM c';

let folder: string;
let file: string;
const opened: ProcessSqlDatabase[] = [];

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'milpa-db-isolation-'));
  file = join(folder, 'app.db');
  const writer = new Database(file);
  writer.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO items (name) VALUES ('a'), ('b');");
  writer.close();
});

afterAll(async () => {
  await Promise.all(opened.map((database) => database.close()));
  rmSync(folder, { recursive: true, force: true });
});

function database(options?: Parameters<typeof betterSqlite3Database>[1]): ProcessSqlDatabase {
  const created = betterSqlite3Database(file, options);
  opened.push(created);
  return created;
}

async function call(
  definition: ToolDefinition<{ sql: string }>,
  sql: string,
  signal = new AbortController().signal,
): Promise<ToolResult | Error> {
  const invocation = { context: ToolContext.cli(), signal, caller: unsupportedCaller };
  try {
    return (await definition.handler({ sql }, invocation)) as ToolResult;
  } catch (error) {
    return error as Error;
  }
}

/** Resolves with how many milliseconds late a 10 ms timer fired. */
function timerLateness(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => setTimeout(() => resolve(performance.now() - started - 10), 10));
}

describe('db_query off the event loop', () => {
  it('fires a 10 ms timer while a 30-million-row query runs, and an abort at 200 ms ends the call', async () => {
    const tool = dbQueryTool({ database: database(), dialect: 'sqlite', timeoutMs: 120_000 });
    // Warm the process first, so the slow query itself is what runs during the measurements.
    expect((await call(tool, 'SELECT 1 AS one')) as ToolResult).toMatchObject({ success: true });
    const controller = new AbortController();
    const started = performance.now();
    const pending = call(tool, SLOW, controller.signal);
    const late = await timerLateness();
    setTimeout(() => controller.abort(new Error('caller gave up')), 200);
    const outcome = await pending;
    const elapsed = performance.now() - started;
    expect(late).toBeLessThan(2000);
    expect(outcome instanceof Error ? outcome.message : (outcome as ToolResult).success).toBe('caller gave up');
    // The query would take 8 s or more; the call ends long before.
    expect(elapsed).toBeLessThan(6000);
  });

  it('answers another call while a slow query runs on a second database', async () => {
    const slowTool = dbQueryTool({ database: database(), dialect: 'sqlite', timeoutMs: 120_000 });
    const quickTool = dbQueryTool({ database: database(), dialect: 'sqlite', timeoutMs: 120_000 });
    const controller = new AbortController();
    const slow = call(slowTool, SLOW, controller.signal);
    const quick = (await call(quickTool, 'SELECT count(*) AS n FROM items')) as ToolResult;
    controller.abort(new Error('done'));
    await slow;
    expect(quick.data).toMatchObject({ rows: [{ n: 2 }] });
  });

  it('answers the abort of a query waiting behind a slow one at once, and runs the next after both', async () => {
    const tool = dbQueryTool({ database: database(), dialect: 'sqlite', timeoutMs: 120_000 });
    expect((await call(tool, 'SELECT 1 AS one')) as ToolResult).toMatchObject({ success: true });
    const slow = new AbortController();
    const waiting = new AbortController();
    const first = call(tool, SLOW, slow.signal);
    const second = call(tool, 'SELECT 1 AS one', waiting.signal);
    setTimeout(() => waiting.abort(new Error('waited too long')), 100);
    const started = performance.now();
    const outcome = await second;
    expect(performance.now() - started).toBeLessThan(3000);
    expect(outcome instanceof Error && outcome.message).toBe('waited too long');
    slow.abort(new Error('done'));
    await first;
    expect(((await call(tool, 'SELECT count(*) AS n FROM items')) as ToolResult).data).toMatchObject({ rows: [{ n: 2 }] });
  });

  it('stops a query at the statement timeout with QUERY_TIMEOUT, then runs the next one on a new process', async () => {
    const tool = dbQueryTool({ database: database(), dialect: 'sqlite', timeoutMs: 300 });
    const started = performance.now();
    const result = (await call(tool, SLOW)) as ToolResult;
    expect(result.success).toBe(false);
    expect(result.meta['code']).toBe('QUERY_TIMEOUT');
    expect(result.error).toMatch(/longer than 300 ms/);
    expect(performance.now() - started).toBeLessThan(6000);
    const next = dbQueryTool({ database: opened.at(-1) as ProcessSqlDatabase, dialect: 'sqlite', timeoutMs: 60_000 });
    expect(((await call(next, 'SELECT name FROM items ORDER BY id')) as ToolResult).data).toMatchObject({
      rows: [{ name: 'a' }, { name: 'b' }],
    });
  });

  it('defaults the statement timeout to 5 s', async () => {
    const tool = dbQueryTool({ database: database(), dialect: 'sqlite' });
    expect(tool.description).toContain('5000 ms');
  });

  it('stops a query whose rows outgrow the byte budget while they stream, with RESULT_TOO_LARGE', async () => {
    // Each row doubles the text: the 25th would hold 16 MiB, far past the 1 MiB default budget.
    const doubling = "WITH RECURSIVE c(n, s) AS (SELECT 0, 'x' UNION ALL SELECT n + 1, s || s FROM c LIMIT 25) SELECT n, s FROM c";
    const tool = dbQueryTool({ database: database(), dialect: 'sqlite', timeoutMs: 60_000 });
    const result = (await call(tool, doubling)) as ToolResult;
    expect(result.meta['code']).toBe('RESULT_TOO_LARGE');
    expect(result.error).toMatch(/more than 1048576 bytes/);
    // Nine rows of two bytes each ('a' and 'x') pass a budget of 10 bytes after five.
    const small = dbQueryTool({ database: database(), dialect: 'sqlite', timeoutMs: 60_000, maxResultBytes: 10 });
    expect(((await call(small, "SELECT 'x' AS a FROM items, items AS b, items AS c")) as ToolResult).meta['code']).toBe('RESULT_TOO_LARGE');
  });

  it('refuses rows over the budget even from a driver that ignores maxBytes', async () => {
    const tool = dbQueryTool({ database: { query: () => [{ text: 'x'.repeat(500) }] }, dialect: 'sqlite', maxResultBytes: 100 });
    expect(((await call(tool, 'SELECT text FROM t')) as ToolResult).meta['code']).toBe('RESULT_TOO_LARGE');
  });

  it('caps the query process memory: a value past the heap cap ends it with QUERY_FAILED, and the next query runs', async () => {
    // A 64 MiB string in a process capped at 16 MiB of heap: the process runs out of memory.
    const huge = "WITH RECURSIVE c(n, s) AS (SELECT 0, 'x' UNION ALL SELECT n + 1, s || s FROM c LIMIT 27) SELECT s FROM c WHERE n = 26";
    const capped = database({ memoryLimitMb: 16 });
    const tool = dbQueryTool({ database: capped, dialect: 'sqlite', timeoutMs: 60_000, maxResultBytes: 1 << 30 });
    const result = (await call(tool, huge)) as ToolResult;
    expect(result.meta['code']).toBe('QUERY_FAILED');
    expect(result.error).toMatch(/ended before answering/);
    expect(((await call(tool, 'SELECT count(*) AS n FROM items')) as ToolResult).data).toMatchObject({ rows: [{ n: 2 }] });
  });

  it('throws INVALID_ARGUMENT for bad options, a writable or in-memory connection, or an empty path', () => {
    expect(() => dbQueryTool({ database: database(), dialect: 'sqlite', timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => dbQueryTool({ database: database(), dialect: 'sqlite', maxResultBytes: 1.5 })).toThrow(/maxResultBytes/);
    expect(() => betterSqlite3Database(file, { memoryLimitMb: 1 })).toThrow(/memoryLimitMb/);
    expect(() => betterSqlite3Database('  ')).toThrow(/file path/);
    expect(() => betterSqlite3Database({ name: ':memory:', readonly: true, memory: true })).toThrow(/in-memory/);
    expect(() => betterSqlite3Database({ name: file, readonly: false })).toThrow(/readonly: true/);
  });

  it('reports DATABASE_UNAVAILABLE for a missing file', async () => {
    const missing = betterSqlite3Database(join(folder, 'missing.db'));
    opened.push(missing);
    const tool = dbQueryTool({ database: missing, dialect: 'sqlite', timeoutMs: 60_000 });
    const result = (await call(tool, 'SELECT 1 AS one')) as ToolResult;
    expect(result.meta['code']).toBe('DATABASE_UNAVAILABLE');
  });
});
