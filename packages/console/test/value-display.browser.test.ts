import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowserFixture } from './support/browser-fixture.js';
import { TOKENS, holdCall, send, type ConsoleFixture } from './support/console-fixture.js';
import { ARTIFACTS, SKIP_BROWSER, type TestBrowser, WAIT, axeViolations, waitForLive } from './support/browser.js';

const shared = useBrowserFixture();
let browser: TestBrowser;
let fixture: ConsoleFixture;

beforeAll(() => {
  if (!SKIP_BROWSER) ({ browser, fixture } = shared.get());
});

const MEGABYTE = 1_000_000;

function signIn(token: string, viewport = { width: 1100, height: 900 }): Promise<Page> {
  return browser.signIn(`${fixture.url}/approvals/`, token, viewport);
}

async function openDetail(page: Page, id: string): Promise<void> {
  await page.goto(`${fixture.url}/approvals/approvals/${id}`);
  await page.getByRole('heading', { name: 'Arguments' }).waitFor(WAIT);
}

async function expectNoSidewaysScrolling(page: Page, width: number): Promise<void> {
  const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  const overflowing = (await page.evaluate(
    `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > ${width})` +
      ".map((e) => e.tagName + ' ' + (e.textContent ?? '').slice(0, 40)).join('; ')",
  )) as string;
  expect(scrollWidth, `wider than the phone: ${overflowing}`).toBeLessThanOrEqual(width);
}

describe.skipIf(SKIP_BROWSER)('values in the approvals console', () => {
  it('shows right-to-left overrides as escapes with a warning, in the order they were sent', async () => {
    const id = await holdCall(fixture, 'print_note', { id: 'invoice\u202Efdp.exe', copies: 1, title: 'pay \u202E0001$' });
    const page = await signIn(TOKENS.ana);
    await openDetail(page, id);
    const idCell = page.getByRole('row', { name: /^id\b/ }).getByRole('cell').first();
    await expect(idCell.textContent()).resolves.toContain('invoice\\u{202E}fdp.exe');
    await expect(idCell.textContent()).resolves.toContain(
      'This value holds invisible or direction-changing characters, shown as \\u{…} escapes.',
    );
    const titleCell = page
      .getByRole('row', { name: /^title\b/ })
      .getByRole('cell')
      .first();
    await expect(titleCell.textContent()).resolves.toContain('pay \\u{202E}0001$');
    // Drawn left to right as sent: "invoice", the escape, then "fdp.exe" (an override would draw "exe.pdf").
    const order = (await page.evaluate(
      `(() => {
        const value = [...document.querySelectorAll('table.arguments td')].find((node) => node.textContent.includes('invoice'));
        const escape = value.querySelector('.escape');
        const range = document.createRange();
        range.setStart(value.lastChild, 0);
        range.setEnd(value.lastChild, 3);
        return {
          escapeRight: escape.getBoundingClientRect().right,
          fdpLeft: range.getBoundingClientRect().left,
          label: escape.getAttribute('aria-label'),
        };
      })()`,
    )) as { escapeRight: number; fdpLeft: number; label: string };
    expect(order.fdpLeft).toBeGreaterThanOrEqual(order.escapeRight - 1);
    expect(order.label).toBe('hidden character U+202E, right-to-left override');
    await page.screenshot({ path: `${ARTIFACTS}hidden-characters.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
  }, 180_000);

  it('loads a page with a 1 MB argument quickly, expands it, opens the whole value, and grants it', async () => {
    const value = `${'a'.repeat(MEGABYTE - 7)}THE END`;
    const id = await holdCall(fixture, 'print_note', { id: value, copies: 7 });
    const serverTimes: number[] = [];
    let bytes = 0;
    for (let round = 0; round < 3; round += 1) {
      const started = performance.now();
      const answer = await send(`${fixture.url}/approvals/approvals/${id}`, { headers: { Authorization: `Bearer ${TOKENS.ana}` } });
      serverTimes.push(Math.round(performance.now() - started));
      bytes = Buffer.byteLength(answer.body);
    }
    const page = await signIn(TOKENS.ana);
    const started = Date.now();
    await page.goto(`${fixture.url}/approvals/approvals/${id}`, { waitUntil: 'load', ...WAIT });
    const loadMs = Date.now() - started;
    const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
    console.info(`[1 MB argument] detail page ${bytes} bytes, server ${serverTimes.join('/')} ms, load ${loadMs} ms, height ${height} px`);
    expect(bytes).toBeLessThan(40_000);
    expect(height).toBeLessThan(5_000);

    await page.getByText('1,000,000 characters, 1,000,000 bytes').waitFor(WAIT);
    await page.getByText('Show the first 2,000 characters').click();
    const start = page.locator('details[open] pre.value');
    await start.waitFor(WAIT);
    await expect(start.textContent()).resolves.toMatch(/^a{2000}…$/);
    expect((await page.evaluate('document.documentElement.scrollHeight')) as number).toBeLessThan(10_000);
    await page.screenshot({ path: `${ARTIFACTS}long-value.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);

    const [whole] = await Promise.all([
      page.waitForEvent('response', (response) => response.url().endsWith('/arguments/id')),
      page.getByRole('link', { name: 'Open the whole value' }).click(),
    ]);
    expect(whole.headers()['content-type']).toBe('text/plain; charset=utf-8');
    const text = (await page.evaluate('document.body.innerText')) as string;
    expect(text.length).toBe(MEGABYTE);
    expect(text.endsWith('THE END')).toBe(true);
    await page.goBack();

    await waitForLive(page);
    await page.getByRole('button', { name: 'Grant' }).click();
    await page.getByText('Granted: the waiting call may now run.').waitFor(WAIT);
    const done = await fixture.registry.resume(id, fixture.agent);
    expect(done.data).toEqual({ printed: 7 });
    expect(fixture.executed.find((call) => call.args['copies'] === 7)?.args['id']).toBe(value);
  }, 240_000);

  it('rejects a call with a 1 MB argument, at phone width without sideways scrolling', async () => {
    const id = await holdCall(fixture, 'print_note', { id: 'r'.repeat(MEGABYTE), copies: 1, title: 'y'.repeat(200) });
    const page = await signIn(TOKENS.ana, { width: 375, height: 800 });
    await openDetail(page, id);
    await page.getByText('Show the first 2,000 characters').click();
    await page.locator('details[open] pre.value').waitFor(WAIT);
    await expectNoSidewaysScrolling(page, 375);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Reason (required)').fill('Nobody can check a megabyte.');
    await page.getByRole('button', { name: 'Reject' }).click();
    await page.getByText('Rejected: the call will not run.').waitFor(WAIT);
    expect((await fixture.verifier.store.get(id))?.result?.status).toBe('failed');
  }, 180_000);

  it('answers a form over the size limit with a page that leads back to the request', async () => {
    const id = await holdCall(fixture, 'print_note', { id: 'big-form', copies: 1 });
    const page = await signIn(TOKENS.ana);
    await page.goto(`${fixture.url}/approvals/approvals/${id}/edit`);
    await page.getByLabel(/title/).fill('z'.repeat(70_000));
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page.getByRole('heading', { name: 'Form too large' }).waitFor(WAIT);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('nothing was recorded');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Back to the approval request' }).click();
    await page.getByRole('heading', { name: 'Approve print_note?' }).waitFor(WAIT);
    expect((await fixture.verifier.store.get(id))?.approvals).toHaveLength(0);
  }, 180_000);

  it('summarises arguments in the pending list, so calls of the same tool can be told apart', async () => {
    await holdCall(fixture, 'delete_note', { id: 'race one' });
    await holdCall(fixture, 'delete_note', { id: 'race two' });
    await holdCall(fixture, 'delete_note', { id: 'race\u202Eowt' });
    const page = await signIn(TOKENS.ana, { width: 375, height: 800 });
    const rows = page.getByRole('row', { name: /delete_note/ });
    await rows.nth(2).waitFor(WAIT);
    const texts = await rows.allInnerTexts();
    expect(texts.some((text) => text.includes('id: "race one"'))).toBe(true);
    expect(texts.some((text) => text.includes('id: "race two"'))).toBe(true);
    expect(texts.some((text) => text.includes('id: "race\\u{202E}owt"'))).toBe(true);
    expect(new Set(texts).size).toBe(texts.length);
    await expectNoSidewaysScrolling(page, 375);
    await page.screenshot({ path: `${ARTIFACTS}pending-summaries.png`, fullPage: true });
    expect(await axeViolations(page)).toEqual([]);
  }, 180_000);
});
