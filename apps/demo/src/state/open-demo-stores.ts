import { mkdirSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { SqliteStoreError, SqliteStores, type SqliteStoresOptions } from '@milpa/store-sqlite';
import { DemoUsageError } from '../cli/demo-usage-error.js';

/** Options of {@link openDemoStores}. */
export interface OpenDemoStoresOptions {
  /**
   * Create the file's folder (and its parents, readable by this user only) when it does not exist;
   * default false: a `--db` path in a folder that does not exist is a mistake worth reporting.
   */
  readonly createFolder?: boolean;
  /** Options passed to `SqliteStores.open` (a clock, a sweep interval). */
  readonly stores?: SqliteStoresOptions;
}

const HINT = 'pass --db with the path of a file in a writable folder (a missing or empty file becomes a new state database)';

function refuse(path: string, reason: string, hint: string = HINT): DemoUsageError {
  return new DemoUsageError(`cannot keep the demo's state in ${path}: ${reason}`, hint, 'STATE_UNAVAILABLE');
}

/** What `path` is: its stats, nothing (missing, or under a file), or the error that kept us from looking. */
function look(path: string): Stats | undefined | NodeJS.ErrnoException {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : (error as NodeJS.ErrnoException);
  }
}

/** What is wrong with the place `path` names, before SQLite is asked; null when nothing is visibly wrong. */
function checkPlace(path: string, createFolder: boolean): DemoUsageError | null {
  const stats = look(path);
  if (stats instanceof Error) return refuse(path, `it cannot be examined (${stats.code ?? 'unknown error'})`);
  if (stats?.isDirectory() === true) return refuse(path, 'it is a folder, not a file');
  const folder = dirname(path);
  const folderStats = look(folder);
  if (folderStats instanceof Error) return refuse(path, `the folder ${folder} cannot be examined (${folderStats.code ?? 'unknown error'})`);
  if (folderStats === undefined) {
    if (!createFolder) return refuse(path, `the folder ${folder} does not exist`, `create it first, or ${HINT}`);
    try {
      // The state holds pending calls' arguments: on a shared machine only this user may read it.
      mkdirSync(folder, { recursive: true, mode: 0o700 });
    } catch (error) {
      return refuse(path, `the folder ${folder} cannot be created (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`);
    }
    return null;
  }
  if (!folderStats.isDirectory()) return refuse(path, `${folder} is not a folder`);
  return null;
}

/** SQLite's reason, said for a person. */
function describeFailure(error: SqliteStoreError): string {
  const cause = error.cause instanceof Error ? error.cause.message : '';
  if (error.failure === 'schema') return error.message.replace(/\s*\n\s*/g, ' ');
  if (/not a database/i.test(cause)) return 'the file is not a SQLite database';
  if (/unable to open/i.test(cause)) return 'the file cannot be created or opened there';
  if (/readonly|read-only/i.test(cause)) return 'the file is read-only';
  return `SQLite failed (${cause === '' ? error.message : cause})`;
}

/**
 * Opens the demo's state: the six Milpa stores (confirmation tokens, rate limits, verifications,
 * held calls, run histories, idempotency keys) in the SQLite file at `path`, creating it when it
 * is missing. A path that cannot hold them — a folder, a folder that does not exist, an unwritable
 * place, a file that is not a SQLite database — is refused with a {@link DemoUsageError}
 * (`STATE_UNAVAILABLE`) whose one-line message names the path and the reason, so the CLI prints it
 * without a stack trace. Close the stores when done.
 *
 * @throws DemoUsageError `STATE_UNAVAILABLE` when the file cannot be opened as the demo's state.
 * @example
 * const stores = openDemoStores(defaultDemoStatePath(process.env), { createFolder: true });
 * try { … } finally { stores.close(); }
 */
export function openDemoStores(path: string, options: OpenDemoStoresOptions = {}): SqliteStores {
  if (path.trim() === '') throw refuse(JSON.stringify(path), 'the path is empty');
  const absolute = resolve(path);
  const problem = checkPlace(absolute, options.createFolder ?? false);
  if (problem !== null) throw problem;
  try {
    return SqliteStores.open(absolute, options.stores);
  } catch (error) {
    if (error instanceof SqliteStoreError) throw refuse(absolute, describeFailure(error));
    throw error;
  }
}
