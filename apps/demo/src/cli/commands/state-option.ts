import type { Command } from 'commander';
import { defaultDemoStatePath } from '../../state/demo-state-path.js';
import type { DemoStores } from '../../state/demo-stores.js';
import { openDemoStores } from '../../state/open-demo-stores.js';
import { openPostgresDemoStores } from '../../state/open-postgres-demo-stores.js';
import type { CliIo } from '../cli-io.js';
import { DemoUsageError } from '../demo-usage-error.js';

/** The parsed `--db` and `--store` flags. */
export interface StateFlags {
  /** `--db`: the SQLite file holding the demo's state. */
  readonly db?: string;
  /** `--store`: the PostgreSQL server holding the demo's state, as a `postgres://` URL. */
  readonly store?: string;
}

/** What `--help` says about where `call` and `mcp` keep their state. */
export const STATE_HELP = `
State (--db):
  Confirmation tokens, rate budgets, verifications, calls held for approval, run histories and
  idempotency keys live in one SQLite file, <tmp>/milpa-demo/state.db unless --db names another
  (MILPA_DEMO_STATE_DIR moves the folder). Every command shares it, across processes: a
  confirm_token one call prints is redeemed by the next, a run continues, and the rate budget
  carries over. Delete the file to start fresh. The notes are not in it: they start afresh on
  every call.
  --store postgres://user@host:5432/database keeps the same state in PostgreSQL instead, in the
  schema milpa_demo (MILPA_DEMO_PG_SCHEMA names another), shared by every process and machine
  that uses it. Drop the schema to start fresh.`;

/**
 * Adds `--db <path>` to `command`: the SQLite file the command keeps the demo's state in.
 *
 * @example
 * addStateOption(program.command('call'), 'the state file (default: <tmp>/milpa-demo/state.db)');
 */
export function addStateOption(
  command: Command,
  description = "the SQLite file holding the demo's state (default: <tmp>/milpa-demo/state.db)",
): Command {
  return command
    .option('--db <path>', description)
    .option('--store <url>', "a postgres:// URL: keep the demo's state in that PostgreSQL database instead");
}

/**
 * Opens the state `--store` (a PostgreSQL URL) or `--db` names, or the default file (`state.db` in
 * `MILPA_DEMO_STATE_DIR`, else in `os.tmpdir()/milpa-demo`, whose folder is created when missing).
 * A place that cannot hold it is a `DemoUsageError` the CLI prints as one line.
 *
 * @throws DemoUsageError `INVALID_OPTION` for both flags at once or a bad URL, `STATE_UNAVAILABLE`
 *   when the file or the server cannot hold the demo's state.
 * @example
 * const stores = await openCommandStores(flags, io);
 * try { … } finally { await stores.close(); }
 */
export async function openCommandStores(flags: StateFlags, io: CliIo): Promise<DemoStores> {
  if (flags.store !== undefined) {
    if (flags.db !== undefined) {
      throw new DemoUsageError('--db and --store name two places for one state', 'pass only one of them', 'INVALID_OPTION');
    }
    return await openPostgresDemoStores(flags.store, io.env);
  }
  if (flags.db !== undefined) return openDemoStores(flags.db);
  return openDemoStores(defaultDemoStatePath(io.env), { createFolder: true });
}
