import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ARTIFACTS, SKIP_BROWSER, TestBrowser, WAIT, axeViolations } from './support/browser.js';
import { TOKENS, holdCall, startConsoleFixture, type ConsoleFixture } from './support/console-fixture.js';
import { HELD, publishPost, ran } from './support/publish-post-tool.js';

let browser: TestBrowser;
let fixture: ConsoleFixture;

beforeAll(async () => {
  if (SKIP_BROWSER) return;
  browser = await TestBrowser.launch();
  fixture = await startConsoleFixture({}, { tools: [publishPost] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await fixture?.close();
}, 60_000);

beforeEach(() => {
  ran.length = 0;
});

function signIn(token: string, viewport = { width: 1100, height: 900 }): Promise<Page> {
  return browser.signIn(`${fixture.url}/approvals/`, token, viewport);
}

describe.skipIf(SKIP_BROWSER)('granting in a browser approves the arguments as held', () => {
  it('runs the call with arguments deep-equal to the held ones after a plain Grant', async () => {
    const id = await holdCall(fixture, 'publish_post', HELD);
    const ana = await signIn(TOKENS.ana);
    await ana.goto(`${fixture.url}/approvals/approvals/${id}`);
    await ana.getByRole('heading', { name: 'Approve publish_post?' }).waitFor(WAIT);
    await ana.getByText('Grant approves the arguments exactly as requested.').waitFor(WAIT);
    expect(await axeViolations(ana)).toEqual([]);
    await ana.getByRole('button', { name: 'Grant', exact: true }).click();
    await ana.getByText('Granted: the waiting call may now run.').waitFor(WAIT);
    expect((await fixture.registry.resume(id, fixture.agent)).success).toBe(true);
    expect(ran).toStrictEqual([HELD]);
  }, 180_000);

  it('edits through a review of the changes, keeps a typed secret hidden, and marks and focuses an invalid field', async () => {
    const secret = 'br-unique-secret-51c0de';
    const id = await holdCall(fixture, 'print_note', { id: 'n8', copies: 1 });
    const ana = await signIn(TOKENS.ana);
    await ana.goto(`${fixture.url}/approvals/approvals/${id}`);
    await ana.getByRole('link', { name: 'Edit arguments…' }).click();
    await ana.getByRole('heading', { name: 'Edit print_note before granting' }).waitFor(WAIT);
    expect(await axeViolations(ana)).toEqual([]);

    await ana.getByLabel(/api_key/).fill(secret);
    await ana.getByLabel(/copies/).fill('50');
    await ana.getByLabel(/title/).fill('first line\nsecond line');
    await ana.getByRole('button', { name: 'Review changes' }).click();
    await ana.getByRole('alert').waitFor(WAIT);
    const copies = ana.getByLabel(/copies/);
    await expect(copies.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(ana.evaluate('document.activeElement?.getAttribute("name")')).resolves.toBe('edit.copies');
    await expect(
      ana
        .getByRole('alert')
        .getByRole('link', { name: /copies: Value too large/ })
        .count(),
    ).resolves.toBe(1);
    await expect(ana.getByLabel(/api_key/).inputValue()).resolves.toBe('');
    await expect(ana.getByLabel(/title/).inputValue()).resolves.toBe('first line\nsecond line');
    expect(await ana.content()).not.toContain(secret);
    await ana.screenshot({ path: `${ARTIFACTS}edit-error.png`, fullPage: true });
    expect(await axeViolations(ana)).toEqual([]);

    await ana.getByLabel(/api_key/).fill(secret);
    await copies.fill('3');
    await ana.getByRole('button', { name: 'Review changes' }).click();
    await ana.getByRole('heading', { name: 'Review changes to print_note' }).waitFor(WAIT);
    const diff = ana.getByRole('table', { name: 'Changed arguments' });
    await expect(diff.getByRole('row', { name: /copies/ }).textContent()).resolves.toBe('copies13');
    await expect(diff.getByRole('row', { name: /api_key/ }).textContent()).resolves.toBe('api_keynot setset (hidden)');
    await expect(diff.getByRole('row', { name: /title/ }).textContent()).resolves.toBe('titlenot set"first line\\nsecond line"');
    expect(await ana.content()).not.toContain(secret);
    await ana.screenshot({ path: `${ARTIFACTS}edit-review.png`, fullPage: true });
    expect(await axeViolations(ana)).toEqual([]);
    expect((await fixture.verifier.store.get(id))?.approvals).toHaveLength(0);

    await ana.getByRole('button', { name: 'Grant with these changes' }).click();
    await ana.getByText('Granted: the waiting call may now run.').waitFor(WAIT);
    await ana
      .getByRole('row', { name: /api_key/ })
      .getByText('set (hidden)')
      .waitFor(WAIT);
    expect(await ana.content()).not.toContain(secret);
    const luis = await signIn(TOKENS.luis);
    await luis.goto(`${fixture.url}/approvals/approvals/${id}`);
    await luis
      .getByRole('row', { name: /api_key/ })
      .getByText('set (hidden)')
      .waitFor(WAIT);
    expect(await luis.content()).not.toContain(secret);
    expect(await axeViolations(luis)).toEqual([]);

    await fixture.registry.resume(id, fixture.agent);
    expect(fixture.executed.filter((call) => call.args['id'] === 'n8')).toEqual([
      { tool: 'print_note', args: { id: 'n8', copies: 3, title: 'first line\nsecond line', api_key: secret } },
    ]);
  }, 180_000);
});
