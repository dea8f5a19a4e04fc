import { sharedConfig } from '../../vitest.shared.ts';

export default {
  ...sharedConfig,
  // Asks PostgreSQL for `SELECT 1` once per run: skips the PostgreSQL tests with one line when none
  // answers (or, with CI set, fails at once).
  test: { ...sharedConfig.test, globalSetup: ['./test/postgres-global-setup.ts'] },
};
