import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { NO_BROWSER } from './find-chromium.js';

/** The Chromium the run's global setup started (`browser-server.ts`), or null when there is none. */
const ENDPOINT = inject('chromiumEndpoint');

/**
 * True when the browser tests are skipped: outside CI on a machine without Chromium or Chrome
 * (one visible line says so). In CI a missing browser fails the run before any test starts.
 */
export const SKIP_BROWSER = ENDPOINT === null;
if (SKIP_BROWSER) console.warn(`[skipped] ${NO_BROWSER} (in CI a missing browser fails the run)`);

/** Generous: a loaded 2-core machine starts pages slowly; every wait is for an element or state. */
export const WAIT = { timeout: 45_000 } as const;

/** Where screenshots go (ignored by git). */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

/** A test file's connection to the run's headless Chromium, with the profiles it opened. */
export class TestBrowser {
  readonly #browser: Browser;
  readonly #contexts: BrowserContext[] = [];

  private constructor(browser: Browser) {
    this.#browser = browser;
  }

  /** Connects to the run's Chromium (Debian's, or the one `findChromium` finds); throws when there is none. */
  static async launch(): Promise<TestBrowser> {
    if (ENDPOINT === null) throw new Error(NO_BROWSER);
    mkdirSync(ARTIFACTS, { recursive: true });
    return new TestBrowser(await chromium.connect(ENDPOINT, { timeout: 60_000 }));
  }

  /** A fresh profile (its own cookies) with a page at `viewport`. */
  async newPage(viewport = { width: 1100, height: 900 }): Promise<Page> {
    const context = await this.#browser.newContext({ viewport });
    context.setDefaultTimeout(WAIT.timeout);
    context.setDefaultNavigationTimeout(WAIT.timeout);
    this.#contexts.push(context);
    return context.newPage();
  }

  /**
   * A fresh profile signed in with `token` on the console's sign-in page at `url` (the console's
   * address, e.g. `http://127.0.0.1:1234/approvals/`), left on the pending list.
   */
  async signIn(url: string, token: string, viewport = { width: 1100, height: 900 }): Promise<Page> {
    const page = await this.newPage(viewport);
    await page.goto(url);
    await page.waitForURL('**/login');
    await page.getByLabel('Approver token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Pending approvals' }).waitFor(WAIT);
    return page;
  }

  /** Closes every profile and this file's connection (the browser stays up for the next file). */
  async close(): Promise<void> {
    for (const context of this.#contexts) await context.close().catch(() => undefined);
    await this.#browser.close();
  }
}

/** Waits until the page's live-update stream is open. */
export async function waitForLive(page: Page): Promise<void> {
  await page.locator('html[data-live-ready="true"]').waitFor({ state: 'attached', ...WAIT });
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One axe-core violation, as the tests report it. */
export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: readonly string[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules, and best practices) on the page as it is now and answers
 * the violations. The script is evaluated through the DevTools protocol, so the page's
 * Content-Security-Policy needs no exception.
 */
export async function axeViolations(page: Page): Promise<readonly AxeViolation[]> {
  await page.evaluate(`${AXE_SOURCE}\n;0`);
  return (await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<unknown> } }).axe;
    const result = (await axe.run((globalThis as unknown as { document: unknown }).document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    })) as { violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] };
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  })) as readonly AxeViolation[];
}
