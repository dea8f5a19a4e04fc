import { afterAll, beforeAll } from 'vitest';
import type { ApprovalConsoleOptions } from '../../src/index.js';
import { SKIP_BROWSER, TestBrowser } from './browser.js';
import { startConsoleFixture, type ConsoleFixture, type FixtureSetup } from './console-fixture.js';

/** The browser and the console a browser test file shares. */
export interface BrowserFixture {
  readonly browser: TestBrowser;
  readonly fixture: ConsoleFixture;
}

/**
 * Launches one Chromium and one console fixture before the file's tests and closes both after
 * (nothing when the browser tests are skipped); read them with `get()` inside a test.
 */
export function useBrowserFixture(overrides: Partial<ApprovalConsoleOptions> = {}, setup: FixtureSetup = {}): { get(): BrowserFixture } {
  let shared: BrowserFixture | null = null;
  beforeAll(async () => {
    if (SKIP_BROWSER) return;
    shared = { browser: await TestBrowser.launch(), fixture: await startConsoleFixture(overrides, setup) };
  }, 120_000);
  afterAll(async () => {
    await shared?.browser.close();
    await shared?.fixture.close();
  }, 60_000);
  return {
    get() {
      if (shared === null) throw new Error('The browser fixture is not started (skipped, or used outside a test).');
      return shared;
    },
  };
}
