/**
 * The browser the console's browser tests drive: `CHROMIUM_PATH`, else `CHROME_PATH`, else the first
 * Chromium or Chrome on `PATH`, else one in the usual install places; null when there is none.
 */
export function findChromium(env?: Record<string, string | undefined>): string | null;

/** The one line a run without a browser prints, and the message a CI run without one fails with. */
export const NO_BROWSER: string;
