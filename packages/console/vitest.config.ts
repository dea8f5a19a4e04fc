import { sharedConfig } from '../../vitest.shared.ts';

export default {
  ...sharedConfig,
  // One Chromium for the whole run (or one line saying the browser tests are skipped).
  test: { ...sharedConfig.test, globalSetup: ['./test/support/browser-server.ts'] },
};
