// The child process behind `betterSqlite3Database`: it opens one SQLite file read-only and runs the
// queries the parent sends, one at a time, so a slow or huge query blocks this process and never the
// host's event loop. The parent kills it (SIGKILL) on timeout or abort: a thread could not be
// stopped while SQLite is inside one long step, a process can.
//
// Plain JavaScript on purpose: it is started with `node` directly, from `src/` in tests and from
// `dist/` once built, without a TypeScript loader (which takes seconds to start on a loaded machine).
//
// Messages from the parent: { type: 'query', id, sql, maxRows, maxBytes }.
// Messages to the parent: { type: 'ready' }, { type: 'rows', id, rows, bytes },
// { type: 'error', id, code, message } (id is null when the database could not be opened).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const file = process.argv[2];

// The process lives only as long as its parent: a closed channel means the host is gone.
process.on('disconnect', () => process.exit(0));

/** @type {import('better-sqlite3').Database | undefined} */
let db;
try {
  const Database = require('better-sqlite3');
  db = new Database(file, { readonly: true, fileMustExist: true });
  process.send?.({ type: 'ready' });
} catch (error) {
  process.send?.({
    type: 'error',
    id: null,
    code: 'DATABASE_UNAVAILABLE',
    message: `The database could not be opened: ${messageOf(error)}`,
  });
}

process.on('message', (message) => {
  if (db === undefined || typeof message !== 'object' || message === null || message.type !== 'query') return;
  process.send?.(runQuery(db, message));
});

/**
 * Runs one read-only statement and reads its rows one at a time, stopping at `maxRows` rows and
 * failing as soon as the rows read so far exceed `maxBytes`.
 * @param {import('better-sqlite3').Database} database
 * @param {{ id: number, sql: string, maxRows: number, maxBytes: number }} query
 */
function runQuery(database, { id, sql, maxRows, maxBytes }) {
  let statement;
  try {
    statement = database.prepare(sql);
  } catch (error) {
    return { type: 'error', id, code: 'QUERY_FAILED', message: `SQLite refused the query: ${messageOf(error)}` };
  }
  if (!statement.reader) {
    return { type: 'error', id, code: 'NOT_A_SELECT', message: 'The statement returns no rows: only SELECT queries are run.' };
  }
  if (!statement.readonly) {
    return {
      type: 'error',
      id,
      code: 'NOT_A_SELECT',
      message: 'SQLite reports that the statement writes: only read-only queries are run.',
    };
  }
  const rows = [];
  let bytes = 0;
  const iterator = statement.iterate();
  try {
    for (let step = iterator.next(); step.done !== true; step = iterator.next()) {
      bytes += sizeOf(step.value);
      if (bytes > maxBytes) {
        return {
          type: 'error',
          id,
          code: 'RESULT_TOO_LARGE',
          message:
            `The rows read so far take more than ${maxBytes} bytes, so the query was stopped: ` +
            'select fewer or shorter columns (substr, length), or fewer rows.',
        };
      }
      rows.push(step.value);
      if (rows.length >= maxRows) break;
    }
  } catch (error) {
    return { type: 'error', id, code: 'QUERY_FAILED', message: `SQLite refused the query: ${messageOf(error)}` };
  } finally {
    iterator.return?.();
  }
  return { type: 'rows', id, rows, bytes };
}

/** About how many bytes a row takes: its column names and values (text as UTF-8, blobs raw, numbers 8). */
function sizeOf(row) {
  let size = 0;
  for (const [key, value] of Object.entries(row)) {
    size += key.length;
    if (typeof value === 'string') size += Buffer.byteLength(value);
    else if (value instanceof Uint8Array) size += value.byteLength;
    else size += 8;
  }
  return size;
}

function messageOf(error) {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}
