import type { TestProject } from 'vitest/node';
import { chromium } from 'playwright-core';
import { NO_BROWSER, findChromium } from './find-chromium.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's WebSocket address, or null when the browser tests are skipped. */
    chromiumEndpoint: string | null;
  }
}

/**
 * Vitest global setup: starts one headless Chromium for the whole run (each browser test file
 * connects to it and opens its own profiles) instead of one per file. Without a browser it provides
 * null, and the browser tests skip with one line, or fail at once when CI is set.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const executablePath = findChromium();
  if (executablePath === null) {
    if (process.env['CI'] !== undefined && process.env['CI'] !== '') {
      // Exits rather than throws, as the Redis check does: the run ends with the one line that matters.
      process.stderr.write(`${NO_BROWSER} With CI set, no test may be skipped.\n`);
      process.exit(1);
    }
    project.provide('chromiumEndpoint', null);
    return async () => undefined;
  }
  const server = await chromium.launchServer({ executablePath, headless: true, args: ['--no-sandbox'], timeout: 60_000 });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
