import { randomBytes } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SqliteStores } from '@milpa/store-sqlite';
import { DemoUsageError } from '../cli/demo-usage-error.js';
import { openDemoStores } from '../state/open-demo-stores.js';

/** Options of {@link openTourState}. */
export interface TourStateOptions {
  /** `--db`: the file to keep the tour's state in, kept afterwards; it must be new or empty. */
  readonly database?: string;
  /** The folder of the fresh file used without `database` (created when missing). */
  readonly directory: string;
}

/** The tour's state: its stores, where they live, and how to let go of them. */
export interface TourState {
  /** The SQLite stores the tour's runtime uses. */
  readonly stores: SqliteStores;
  /** True when the file stays after the tour (`--db`); false for the tour's own fresh file. */
  readonly kept: boolean;
  /** Closes the stores and, unless `kept`, deletes the file; idempotent. */
  readonly close: () => void;
}

/** True when `path` is a file with content; anything else (missing, a folder, unreadable) is left for opening to judge. */
function holdsAnything(path: string): boolean {
  try {
    const stats = statSync(path);
    return stats.isFile() && stats.size > 0;
  } catch {
    return false;
  }
}

/** The files SQLite keeps beside a database in WAL mode (and the rollback journal, should one be left). */
const COMPANIONS = ['', '-wal', '-shm', '-journal'] as const;

/**
 * Opens the state a tour starts from, always empty, so the tour prints the same transcript however
 * often it runs: without `database`, a fresh file in `directory` (named for this process and a
 * random suffix, so two tours at once never share one), deleted with its WAL files when the tour
 * ends; with `database`, that file, kept afterwards for a look, which must not exist yet or be
 * empty — a tour never overwrites or reuses state, since the budgets, tokens and verifications of
 * an earlier run would change what it shows.
 *
 * @throws DemoUsageError `STATE_UNAVAILABLE` when `database` is not empty or cannot hold the state.
 * @example
 * const state = openTourState({ directory: demoStateDirectory(process.env) });
 * try { … state.stores … } finally { state.close(); }
 */
export function openTourState(options: TourStateOptions): TourState {
  if (options.database !== undefined) {
    const path = resolve(options.database);
    if (holdsAnything(path)) {
      throw new DemoUsageError(
        `the tour starts from an empty state, and ${path} is not empty`,
        'delete it to run the tour in it again, or pass --db with a new path',
        'STATE_UNAVAILABLE',
      );
    }
    const stores = openDemoStores(path);
    return { stores, kept: true, close: () => stores.close() };
  }
  const path = join(options.directory, `tour-${process.pid}-${randomBytes(4).toString('hex')}.db`);
  const stores = openDemoStores(path, { createFolder: true });
  let closed = false;
  return {
    stores,
    kept: false,
    close: () => {
      if (closed) return;
      closed = true;
      stores.close();
      for (const suffix of COMPANIONS) rmSync(`${path}${suffix}`, { force: true });
    },
  };
}
