import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS, SKIP_BROWSER, WAIT, axeViolations, waitForLive } from './support/browser.js';
import { useBrowserFixture } from './support/browser-fixture.js';
import { TOKENS, holdCall } from './support/console-fixture.js';

/** Approval ids nobody may see any more (the `authorize` hook reads it). */
const revoked = new Set<string>();
const shared = useBrowserFixture({ authorize: (_approver, item) => !revoked.has(item.id) });

/** A signed-in approver's page on the detail view of approval `id`, with its live stream open. */
async function openItem(token: string, id: string): Promise<Page> {
  const { browser, fixture } = shared.get();
  const page = await browser.signIn(`${fixture.url}/approvals/`, token);
  await page.goto(`${fixture.url}/approvals/approvals/${id}`);
  await waitForLive(page);
  return page;
}

/** Marks the page's forms, so a test can tell whether they were replaced. */
async function markForms(page: Page): Promise<void> {
  await page.evaluate(`document.querySelectorAll('main form').forEach(function (form) { form.dataset.original = 'yes'; })`);
}

describe.skipIf(SKIP_BROWSER)('live decisions in a browser', () => {
  it("disables the other approver's Grant and Reject when one decides, keeping what they typed", async () => {
    const { fixture } = shared.get();
    const id = await holdCall(fixture, 'print_note', { id: 'live-1', copies: 1 });
    const ana = await openItem(TOKENS.ana, id);
    const luis = await openItem(TOKENS.luis, id);
    await markForms(luis);
    await luis.getByLabel('Reason (required)').fill('half-typed reason');
    expect(await luis.getByRole('button', { name: 'Reject' }).isEnabled()).toBe(true);

    await ana.getByRole('button', { name: 'Grant' }).click();
    await ana.getByText('Granted: the waiting call may now run.').waitFor(WAIT);

    // Luis's page learns of it without a reload: the buttons go off and a note says why.
    const note = luis.locator('#stale-note');
    await note.waitFor(WAIT);
    await expect(note.textContent()).resolves.toContain('This request was decided while this page was open');
    expect(await luis.getByRole('button', { name: 'Grant' }).isDisabled()).toBe(true);
    expect(await luis.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
    await luis
      .locator('#status')
      .getByText(/Granted by user:ana/)
      .waitFor(WAIT);
    expect(await luis.getByLabel('Reason (required)').inputValue()).toBe('half-typed reason');
    expect(await luis.locator('main form[data-original="yes"]').count()).toBe(2);
    expect(await luis.getByRole('button', { name: 'Grant' }).getAttribute('aria-describedby')).toBe('stale-note');
    await luis.screenshot({ path: `${ARTIFACTS}stale-buttons.png`, fullPage: true });
    expect(await axeViolations(luis)).toEqual([]);
    expect(await axeViolations(ana)).toEqual([]);

    const resumed = await fixture.registry.resume(id, fixture.agent);
    expect(resumed.success).toBe(true);
  }, 180_000);

  it('disables Grant in a second tab of an approver who just granted, and leaves Reject on', async () => {
    const { fixture } = shared.get();
    const id = await holdCall(fixture, 'delete_note', { id: 'live-2' });
    const first = await openItem(TOKENS.ana, id);
    const second = await first.context().newPage();
    await second.goto(`${fixture.url}/approvals/approvals/${id}`);
    await waitForLive(second);
    await markForms(second);

    await first.getByRole('button', { name: 'Grant' }).click();
    await first.getByText('Your approval is recorded; the policy needs more approvals from other people.').waitFor(WAIT);
    expect(await first.getByRole('button', { name: 'Grant' }).isDisabled()).toBe(true);

    const note = second.locator('#stale-note');
    await note.waitFor(WAIT);
    await expect(note.textContent()).resolves.toContain('You can no longer do this here');
    expect(await second.getByRole('button', { name: 'Grant' }).isDisabled()).toBe(true);
    expect(await second.getByRole('button', { name: 'Reject' }).isEnabled()).toBe(true);
    expect(await second.locator('main form[data-original="yes"]').count()).toBe(2);
    expect(await axeViolations(second)).toEqual([]);
    expect(await axeViolations(first)).toEqual([]);

    // Luis completes the approval: now Reject goes off too, with the note saying it was decided.
    const luis = await openItem(TOKENS.luis, id);
    await luis.getByRole('button', { name: 'Grant' }).click();
    await luis.getByText('Granted: the waiting call may now run.').waitFor(WAIT);
    await second.getByText('This request was decided while this page was open', { exact: false }).waitFor(WAIT);
    expect(await second.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
    expect(await axeViolations(second)).toEqual([]);
  }, 180_000);

  it('disables the buttons when the approver may no longer see the item', async () => {
    const { fixture } = shared.get();
    const id = await holdCall(fixture, 'print_note', { id: 'live-3', copies: 1 });
    const luis = await openItem(TOKENS.luis, id);
    await luis.getByLabel('Reason (optional)').fill('still typing');
    revoked.add(id);
    fixture.console.notify();

    const note = luis.locator('#stale-note');
    await note.waitFor(WAIT);
    await expect(note.textContent()).resolves.toContain('This request is no longer available to you');
    expect(await luis.getByRole('button', { name: 'Grant' }).isDisabled()).toBe(true);
    expect(await luis.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
    expect(await luis.getByLabel('Reason (optional)').inputValue()).toBe('still typing');
    expect(await axeViolations(luis)).toEqual([]);
  }, 180_000);
});
