import { InMemoryApprovalStore } from '@milpa/tool-runtime';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, SKIP_BROWSER, TestBrowser, WAIT, axeViolations } from './support/browser.js';
import { TOKENS, startConsoleFixture, type ConsoleFixture } from './support/console-fixture.js';
import { failingTool, holdWithReason, noteTarget } from './support/decision-context.js';

let browser: TestBrowser;
let fixture: ConsoleFixture;

const HOSTILE_REASON = 'Tidy up <img src=x onerror="document.title=\'pwned\'">\nthen report back.';

beforeAll(async () => {
  if (SKIP_BROWSER) return;
  browser = await TestBrowser.launch();
  const approvalStore = new InMemoryApprovalStore();
  fixture = await startConsoleFixture(
    { approvals: approvalStore },
    {
      tools: [failingTool],
      registry: {
        approvalStore,
        targetResolvers: [noteTarget],
      },
    },
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await fixture?.close();
}, 60_000);

const hold = (tool: string, args: Record<string, unknown>, reason?: string) => holdWithReason(fixture, tool, args, reason);

/** The text of the Request list's entry named `term`. */
async function fact(page: Page, term: string): Promise<string> {
  const entry = page.locator('dl.facts dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
  return (await entry.textContent({ timeout: WAIT.timeout })) ?? '';
}

describe.skipIf(SKIP_BROWSER)('the detail view shows enough to decide, in a browser', () => {
  it("shows the description, effect, target and the agent's reason as text, then the outcome once the call ran", async () => {
    const id = await hold('print_note', { id: 'n-42', copies: 2 }, HOSTILE_REASON);
    const page = await browser.signIn(`${fixture.url}/approvals/`, TOKENS.ana, { width: 1100, height: 900 });
    await page.goto(`${fixture.url}/approvals/approvals/${id}`);
    await page.getByRole('heading', { name: 'Approve print_note?' }).waitFor(WAIT);
    expect(await fact(page, 'What the tool does')).toBe('Prints copies of a note.');
    expect(await fact(page, 'Effect')).toBe('Changes things on every call; may delete or overwrite data');
    expect(await fact(page, 'Target')).toBe('note n-42');
    const quote = page.locator('blockquote.agent-reason');
    expect(await quote.textContent()).toBe(HOSTILE_REASON);
    // The reason keeps its line break on screen, and its markup stayed text: no image, no script ran.
    expect(await page.evaluate("getComputedStyle(document.querySelector('blockquote.agent-reason')).whiteSpace")).toBe('pre-wrap');
    expect(await page.locator('dl.facts img').count()).toBe(0);
    expect(await page.title()).not.toBe('pwned');
    expect(await fact(page, 'Outcome')).toBe('Not decided yet: nothing has run.');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Grant' }).click();
    await page.getByText('Granted: the waiting call may now run.').waitFor(WAIT);
    expect(await fact(page, 'Outcome')).toBe('Not resumed yet: the call runs when the agent calls again.');
    expect((await fixture.registry.resume(id, fixture.agent)).success).toBe(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Approve print_note?' }).waitFor(WAIT);
    expect(await fact(page, 'Outcome')).toMatch(/^Ran at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC — succeeded\.$/);
    await page.screenshot({ path: `${ARTIFACTS}decision-context.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
  }, 180_000);

  it('shows a resumed call that failed with its error code, readable at phone width', async () => {
    const id = await hold('purge_cache', { region: 'eu' });
    const page = await browser.signIn(`${fixture.url}/approvals/`, TOKENS.luis, { width: 390, height: 844 });
    await page.goto(`${fixture.url}/approvals/approvals/${id}`);
    await page.getByRole('button', { name: 'Grant' }).click();
    await page.getByText('Granted: the waiting call may now run.').waitFor(WAIT);
    expect((await fixture.registry.resume(id, fixture.agent)).success).toBe(false);
    await page.reload();
    await page.getByRole('heading', { name: 'Approve purge_cache?' }).waitFor(WAIT);
    expect(await fact(page, 'Outcome')).toMatch(/^Failed at .+ UTC — INTERNAL_ERROR\.$/);
    expect(await fact(page, 'Agent’s reason')).toBe('The agent gave none');
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}decision-context-failed.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
  }, 180_000);
});
