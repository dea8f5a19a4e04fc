import { sharedConfig } from '../../vitest.shared.ts';

export default {
  ...sharedConfig,
  // Asks Redis for a PING once per run: skips the Redis tests with one line when none answers (or,
  // with CI set, fails at once).
  test: { ...sharedConfig.test, globalSetup: ['./test/redis-global-setup.ts'] },
};
