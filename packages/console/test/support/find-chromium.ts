// The browser lookup lives with the repository's scripts, which check for a browser before a CI run.
export { findChromium, NO_BROWSER } from '../../../../scripts/find-chromium.mjs';
