import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MilpaError } from '@milpa/core';
import { ToolError } from '../../lifecycle/tool-error.js';
import type { SqlDatabase, SqlQueryOptions, SqlRow } from './sql-database.js';
import { abortable } from '../../lifecycle/abortable.js';

/** The part of a better-sqlite3 `Database` {@link betterSqlite3Database} reads: which file, and that it is read-only. */
export interface BetterSqlite3Like {
  /** The database file (better-sqlite3's `db.name`). */
  readonly name: string;
  /** True when the connection was opened with `readonly: true`. */
  readonly readonly: boolean;
  /** True for an in-memory database, which another process cannot open. */
  readonly memory?: boolean;
}

/** Options of {@link betterSqlite3Database}. */
export interface BetterSqlite3DatabaseOptions {
  /** The most megabytes of JavaScript heap the query process may use; default {@link SQLITE_QUERY_MEMORY_MB}. */
  readonly memoryLimitMb?: number;
}

/** A {@link SqlDatabase} that runs its queries in a child process; `close()` ends the process. */
export interface ProcessSqlDatabase extends SqlDatabase {
  /** Ends the query process (a running query is killed). Later queries start a new one. */
  close(): Promise<void>;
}

/** The default heap cap, in megabytes, of the process `betterSqlite3Database` runs queries in. */
export const SQLITE_QUERY_MEMORY_MB = 256;

/** The default byte budget of one query's rows, when the caller passes none. */
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

type Reply =
  | { readonly type: 'ready' }
  | { readonly type: 'rows'; readonly id: number; readonly rows: SqlRow[] }
  | { readonly type: 'error'; readonly id: number | null; readonly code: string; readonly message: string };

/**
 * The SQLite database of `db_query`, over better-sqlite3 (install it beside this package). Queries
 * run in a child process that opens the file read-only (`readonly: true, fileMustExist: true`), so
 * a slow or huge query never blocks the host: other calls and timers go on, and on timeout or
 * abort the process is killed at once (then replaced by a new one for the next query). One process
 * per database stays warm between queries and runs them one at a time; its JavaScript heap is
 * capped (`memoryLimitMb`). Rows are read one at a time, stopping after `maxRows` and failing with
 * `RESULT_TOO_LARGE` as soon as they exceed `maxBytes`. Statements SQLite reports as returning no
 * rows or as writing are refused (`NOT_A_SELECT`).
 *
 * Pass the file's path, or a connection opened with `readonly: true` (only its file name is used:
 * the queries run on a connection of their own). In-memory databases cannot be shared: use a file.
 *
 * @throws MilpaError `INVALID_ARGUMENT` when the connection is not read-only or is in memory, or the path is empty.
 * @example
 * const database = betterSqlite3Database('/srv/data/shop.db');
 * registry.register(dbQueryTool({ database, dialect: 'sqlite', allow: { orders: '*' } }));
 * // on shutdown: await database.close();
 */
export function betterSqlite3Database(source: string | BetterSqlite3Like, options: BetterSqlite3DatabaseOptions = {}): ProcessSqlDatabase {
  const file = databaseFileOf(source);
  const memoryLimitMb = options.memoryLimitMb ?? SQLITE_QUERY_MEMORY_MB;
  if (!Number.isInteger(memoryLimitMb) || memoryLimitMb < 16) {
    throw new MilpaError(`memoryLimitMb must be an integer of at least 16, got ${String(memoryLimitMb)}.`, { code: 'INVALID_ARGUMENT' });
  }
  return new QueryProcess(file, memoryLimitMb);
}

function databaseFileOf(source: string | BetterSqlite3Like): string {
  if (typeof source === 'string') {
    if (source.trim() === '') throw new MilpaError('betterSqlite3Database needs a database file path.', { code: 'INVALID_ARGUMENT' });
    return source;
  }
  if (source?.readonly !== true) {
    throw new MilpaError('db_query needs a read-only connection: open it with new Database(file, { readonly: true }).', {
      code: 'INVALID_ARGUMENT',
    });
  }
  if (source.memory === true || typeof source.name !== 'string' || source.name === '' || source.name === ':memory:') {
    throw new MilpaError('db_query runs queries in a process of their own, which cannot open an in-memory database: use a file.', {
      code: 'INVALID_ARGUMENT',
    });
  }
  return source.name;
}

// Beside this module in src/ (tests) and in dist/ (the build copies it there under the same name).
const SCRIPT = fileURLToPath(new URL('./sqlite-query-process.js', import.meta.url));

class QueryProcess implements ProcessSqlDatabase {
  #child: ChildProcess | undefined;
  #ready: Promise<ChildProcess> | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #nextId = 1;

  constructor(
    readonly file: string,
    readonly memoryLimitMb: number,
  ) {}

  query(sql: string, options: SqlQueryOptions): Promise<readonly SqlRow[]> {
    const turn = this.#queue;
    // A query waiting for its turn still answers its abort or timeout at once.
    const run = abortable(turn, options.signal).then(() => this.#run(sql, options));
    // The next query waits for this one and the one before it to settle, whether they failed or not.
    this.#queue = Promise.all([turn, run.catch(() => undefined)]);
    return run;
  }

  async close(): Promise<void> {
    this.#kill();
  }

  async #run(sql: string, { maxRows, maxBytes = DEFAULT_MAX_BYTES, signal }: SqlQueryOptions): Promise<readonly SqlRow[]> {
    signal.throwIfAborted();
    const child = await this.#start(signal);
    const id = this.#nextId++;
    return new Promise<readonly SqlRow[]>((resolve, reject) => {
      const finish = (settle: () => void) => {
        signal.removeEventListener('abort', onAbort);
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.unref();
        (child.channel as { unref?: () => void } | undefined)?.unref?.();
        settle();
      };
      const onAbort = () => {
        // SQLite cannot be interrupted from outside; killing its process stops the query at once.
        this.#kill();
        finish(() => reject(signal.reason));
      };
      const onMessage = (reply: Reply) => {
        if (reply.type === 'rows' && reply.id === id) finish(() => resolve(reply.rows));
        else if (reply.type === 'error' && reply.id === id) finish(() => reject(new ToolError(reply.code, reply.message)));
      };
      const onExit = () => {
        this.#forget(child);
        finish(() =>
          reject(
            new ToolError('QUERY_FAILED', 'The query process ended before answering (it may have run out of memory): narrow the query.'),
          ),
        );
      };
      signal.addEventListener('abort', onAbort, { once: true });
      child.on('message', onMessage);
      child.on('exit', onExit);
      // Keep the host alive while a query runs; an idle process does not hold it open.
      child.ref();
      (child.channel as { ref?: () => void } | undefined)?.ref?.();
      child.send({ type: 'query', id, sql, maxRows, maxBytes });
    });
  }

  #start(signal: AbortSignal): Promise<ChildProcess> {
    if (this.#ready !== undefined) return abortable(this.#ready, signal);
    if (!existsSync(SCRIPT)) {
      return Promise.reject(new ToolError('QUERY_FAILED', 'The SQLite query process script is missing from the installed package.'));
    }
    const child = fork(SCRIPT, [this.file], {
      // A heap cap of its own, and none of the host's flags or environment (loaders, inspector, secrets).
      execArgv: [`--max-old-space-size=${this.memoryLimitMb}`, `--max-semi-space-size=16`],
      env: {},
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    this.#child = child;
    // A send to a process that just died reports here; the exit handler answers the query.
    child.on('error', () => undefined);
    const ready = new Promise<ChildProcess>((resolve, reject) => {
      const onMessage = (reply: Reply) => {
        if (reply.type === 'ready') {
          // An idle process does not keep the host alive; a running query refs it again.
          child.unref();
          (child.channel as { unref?: () => void } | undefined)?.unref?.();
          settle(() => resolve(child));
        } else if (reply.type === 'error' && reply.id === null) {
          this.#kill();
          settle(() => reject(new ToolError(reply.code, reply.message)));
        }
      };
      const onExit = () => {
        this.#forget(child);
        settle(() => reject(new ToolError('QUERY_FAILED', 'The SQLite query process could not start.')));
      };
      const onError = (error: Error) => {
        this.#forget(child);
        settle(() => reject(new ToolError('QUERY_FAILED', `The SQLite query process could not start: ${error.message}`)));
      };
      const settle = (done: () => void) => {
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.off('error', onError);
        done();
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.on('error', onError);
    });
    this.#ready = ready;
    // A failed start is not kept: the next query tries again.
    ready.catch(() => {
      if (this.#ready === ready) this.#ready = undefined;
    });
    return abortable(ready, signal);
  }

  #kill(): void {
    const child = this.#child;
    if (child === undefined) return;
    this.#forget(child);
    child.kill('SIGKILL');
  }

  #forget(child: ChildProcess): void {
    if (this.#child !== child) return;
    this.#child = undefined;
    this.#ready = undefined;
  }
}
