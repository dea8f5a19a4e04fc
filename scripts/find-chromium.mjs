// Finds the Chromium or Chrome the approvals console's browser tests drive. Used by those tests
// (packages/console/test/support) and by scripts/test.mjs, which with CI set stops the test command
// in its first seconds when there is no browser rather than minutes later when the console's tests start.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Program names a Chromium or Chrome build goes by on PATH. */
const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

/** Where browsers usually live when they are not on PATH (Debian/Ubuntu, snap, macOS). */
const USUAL_PLACES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The browser the console's browser tests drive: `CHROMIUM_PATH`, else `CHROME_PATH`, else the first
 * Chromium or Chrome on `PATH`, else one in the usual install places; null when there is none.
 * @param {Record<string, string | undefined>} env
 * @returns {string | null}
 */
export function findChromium(env = process.env) {
  for (const variable of ['CHROMIUM_PATH', 'CHROME_PATH']) {
    const given = env[variable];
    if (given !== undefined && given !== '') return executable(given) ? given : null;
  }
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    for (const name of NAMES) if (executable(join(folder, name))) return join(folder, name);
  }
  return USUAL_PLACES.find(executable) ?? null;
}

/** The one line a run without a browser prints, and the message a CI run without one fails with. */
export const NO_BROWSER =
  'The approvals console browser tests need Chromium or Chrome: install it (Debian: apt-get install -y chromium) ' +
  'or set CHROMIUM_PATH to its executable.';
