import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKENS, holdCall, startConsoleFixture, type ConsoleFixture } from './support/console-fixture.js';
import { ARTIFACTS, SKIP_BROWSER, TestBrowser, WAIT, axeViolations, waitForLive } from './support/browser.js';

let browser: TestBrowser;
let fixture: ConsoleFixture;

beforeAll(async () => {
  if (SKIP_BROWSER) return;
  browser = await TestBrowser.launch();
  fixture = await startConsoleFixture();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await fixture?.close();
}, 60_000);

/** A fresh browser profile signed in with `token` on the console's sign-in page, on the pending list. */
function signIn(token: string, viewport = { width: 1100, height: 900 }): Promise<Page> {
  return browser.signIn(`${fixture.url}/approvals/`, token, viewport);
}

function alert(page: Page) {
  return page.getByRole('alert');
}

describe.skipIf(SKIP_BROWSER)('the approvals console in a browser', () => {
  it('shows a held call live, opens it, grants it, and the waiting call resumes and runs once', async () => {
    const page = await signIn(TOKENS.ana);
    await page.getByText('Nothing is waiting for approval.').waitFor(WAIT);
    await waitForLive(page);
    const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 2, title: 'Quarterly <b>report</b>' });
    const link = page.getByRole('link', { name: 'print_note' });
    await link.waitFor(WAIT);
    const row = page.getByRole('row', { name: /print_note/ });
    await expect(row.textContent()).resolves.toContain('agent:assistant');
    await expect(row.textContent()).resolves.toContain('0 of 1');
    await page.screenshot({ path: `${ARTIFACTS}pending-list.png`, fullPage: true });

    await link.click();
    await page.getByRole('heading', { name: 'Approve print_note?' }).waitFor(WAIT);
    await expect(page.getByRole('row', { name: /title/ }).first().textContent()).resolves.toContain('Quarterly <b>report</b>');
    await page.screenshot({ path: `${ARTIFACTS}detail-view.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    // Keyboard only: focus the button and press Enter.
    await page.getByRole('button', { name: 'Grant' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Granted: the waiting call may now run.').waitFor(WAIT);

    const done = await fixture.registry.resume(id, fixture.agent);
    expect(done.data).toEqual({ printed: 2 });
    const again = await fixture.registry.resume(id, fixture.agent);
    expect(again.success).toBe(false);
    expect(fixture.executed.filter((call) => call.args['id'] === 'n1')).toHaveLength(1);

    await page.getByRole('link', { name: 'History' }).click();
    await page
      .getByRole('row', { name: /print_note/ })
      .getByText('Granted')
      .waitFor(WAIT);
  }, 180_000);

  it('records a first approval of a dual policy and lets a second approver complete it, live on both pages', async () => {
    const ana = await signIn(TOKENS.ana);
    const id = await holdCall(fixture, 'delete_note', { id: 'n7' });
    await ana.goto(`${fixture.url}/approvals/approvals/${id}`);
    await waitForLive(ana);
    await ana.getByRole('button', { name: 'Grant' }).click();
    await ana.getByText('Your approval is recorded; the policy needs more approvals from other people.').waitFor(WAIT);
    await ana.getByText('Waiting for approval: 1 of 2 (user:ana) approvals so far.').waitFor(WAIT);
    expect((await fixture.registry.resume(id, fixture.agent)).getCode()).toBe('APPROVAL_PENDING');

    // A second grant by the same approver is not offered (the server refuses one too: see console-security.test.ts).
    await expect(ana.getByRole('button', { name: 'Grant' }).isDisabled()).resolves.toBe(true);
    await waitForLive(ana);

    const luis = await signIn(TOKENS.luis);
    await luis.getByRole('link', { name: 'delete_note' }).click();
    await luis.getByText('Waiting for approval: 1 of 2 (user:ana) approvals so far.').waitFor(WAIT);
    await luis.getByRole('button', { name: 'Grant' }).click();
    await luis.getByText('Granted: the waiting call may now run.').waitFor(WAIT);
    // Ana's open page learns of the decision without a reload.
    await ana
      .locator('#status')
      .getByText(/Granted by user:luis/)
      .waitFor(WAIT);

    const done = await fixture.registry.resume(id, fixture.agent);
    expect(done.success).toBe(true);
    expect(fixture.executed.filter((call) => call.tool === 'delete_note')).toEqual([{ tool: 'delete_note', args: { id: 'n7' } }]);
  }, 180_000);

  it("refuses the requester's own approval and says why", async () => {
    const id = await holdCall(fixture, 'print_note', { id: 'n2', copies: 1 });
    const agent = await signIn(TOKENS.agent);
    await agent.goto(`${fixture.url}/approvals/approvals/${id}`);
    await agent.getByText('You asked for this call, so you cannot approve it: someone else has to.', { exact: false }).waitFor(WAIT);
    await agent.getByRole('button', { name: 'Grant' }).click();
    await alert(agent).waitFor(WAIT);
    await expect(alert(agent).textContent()).resolves.toContain('You asked for this call (agent:assistant), so you cannot approve it');
    expect((await fixture.verifier.store.get(id))?.approvals).toHaveLength(0);
    expect((await fixture.registry.resume(id, fixture.agent)).getCode()).toBe('APPROVAL_PENDING');
  }, 180_000);

  it('refuses an edit with an invalid value on the field, then runs the reviewed correction (phone width)', async () => {
    // Long unbreakable values (the run id in the history caption, a 200-character title) must wrap
    // at phone width whatever font the browser settles on.
    const id = await holdCall(fixture, 'print_note', { id: 'n3', copies: 1, title: 'x'.repeat(200) });
    const ana = await signIn(TOKENS.ana, { width: 375, height: 800 });
    await ana.goto(`${fixture.url}/approvals/approvals/${id}`);
    await ana.locator('table.history').waitFor({ state: 'attached', ...WAIT });
    await ana.getByRole('link', { name: 'Edit arguments…' }).click();
    await ana.getByLabel(/copies/).fill('50');
    await ana.getByRole('button', { name: 'Review changes' }).click();
    await alert(ana).waitFor(WAIT);
    await expect(alert(ana).textContent()).resolves.toContain('copies: Value too large (max: 10)');
    await expect(ana.getByLabel(/copies/).inputValue()).resolves.toBe('50');
    await expect(ana.getByLabel(/copies/).getAttribute('aria-invalid')).resolves.toBe('true');
    const width = (await ana.evaluate('document.documentElement.scrollWidth')) as number;
    const overflowing = (await ana.evaluate(
      "[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > 375).map((e) => e.tagName + ' ' " +
        "+ (e.textContent ?? '').slice(0, 40)).join('; ')",
    )) as string;
    expect(width, `wider than the phone: ${overflowing}`).toBeLessThanOrEqual(375);
    expect((await fixture.verifier.store.get(id))?.approvals).toHaveLength(0);

    await ana.getByLabel(/copies/).fill('4');
    await ana.getByRole('button', { name: 'Review changes' }).click();
    await ana.getByRole('button', { name: 'Grant with these changes' }).click();
    await ana.getByText('Granted: the waiting call may now run.').waitFor(WAIT);
    const done = await fixture.registry.resume(id, fixture.agent);
    expect(done.data).toEqual({ printed: 4 });
  }, 180_000);
});
