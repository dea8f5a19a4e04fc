import type { Command } from 'commander';
import type { SqliteStores } from '@milpa/store-sqlite';
import { defaultDemoStatePath } from '../../state/demo-state-path.js';
import { openDemoStores } from '../../state/open-demo-stores.js';
import type { CliIo } from '../cli-io.js';

/** The parsed `--db` flag. */
export interface StateFlags {
  /** `--db`: the SQLite file holding the demo's state. */
  readonly db?: string;
}

/** What `--help` says about where `call` and `mcp` keep their state. */
export const STATE_HELP = `
State (--db):
  Confirmation tokens, rate budgets, verifications, calls held for approval, run histories and
  idempotency keys live in one SQLite file, <tmp>/milpa-demo/state.db unless --db names another
  (MILPA_DEMO_STATE_DIR moves the folder). Every command shares it, across processes: a
  confirm_token one call prints is redeemed by the next, a run continues, and the rate budget
  carries over. Delete the file to start fresh. The notes are not in it: they start afresh on
  every call.`;

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
  return command.option('--db <path>', description);
}

/**
 * Opens the state `--db` names, or the default file (`state.db` in `MILPA_DEMO_STATE_DIR`, else in
 * `os.tmpdir()/milpa-demo`, whose folder is created when missing). A path that cannot hold it is a
 * `DemoUsageError` the CLI prints as one line.
 *
 * @throws DemoUsageError `STATE_UNAVAILABLE` when the file cannot be opened as the demo's state.
 * @example
 * const stores = openCommandStores(flags, io);
 * try { … } finally { stores.close(); }
 */
export function openCommandStores(flags: StateFlags, io: CliIo): SqliteStores {
  if (flags.db !== undefined) return openDemoStores(flags.db);
  return openDemoStores(defaultDemoStatePath(io.env), { createFolder: true });
}
