import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenAuthentication } from '../src/index.js';
import { AGENT, TOKENS, holdCall, startConsoleFixture, type ConsoleFixture } from './support/console-fixture.js';
import { SKIP_BROWSER, TestBrowser, WAIT, axeViolations } from './support/browser.js';

let browser: TestBrowser;
let fixture: ConsoleFixture;

beforeAll(async () => {
  if (SKIP_BROWSER) return;
  browser = await TestBrowser.launch();
  fixture = await startConsoleFixture(
    tokenAuthentication({
      tokens: { [TOKENS.ana]: 'user:ana', [TOKENS.luis]: 'user:luis', [TOKENS.agent]: AGENT },
      // Ana decides printing; Luis decides any tool under the dual policy (delete_note).
      approvers: { 'user:ana': { tools: ['print_note'] }, 'user:luis': { tools: ['*'], policies: ['dual'] } },
    }),
  );
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await fixture?.close();
}, 60_000);

describe.skipIf(SKIP_BROWSER)('console sessions in a browser', () => {
  it('signs in, signs out, and the old session cookie put back in a fresh profile signs nobody in', async () => {
    const signInPage = await browser.newPage();
    await signInPage.goto(`${fixture.url}/approvals/`);
    await signInPage.waitForURL('**/approvals/login');
    expect(await axeViolations(signInPage)).toEqual([]);

    const page = await browser.signIn(`${fixture.url}/approvals/`, TOKENS.ana);
    expect(await axeViolations(page)).toEqual([]);
    const before = await page.context().cookies();
    const session = before.find((cookie) => cookie.name === 'milpa_console_session');
    expect(session?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session?.value).not.toBe(TOKENS.ana);
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Strict');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor(WAIT);
    expect((await page.context().cookies()).some((cookie) => cookie.name === 'milpa_console_session')).toBe(false);

    const replay = await browser.newPage();
    await replay.context().addCookies(before);
    await replay.goto(`${fixture.url}/approvals/`);
    await replay.waitForURL('**/approvals/login');
    await replay.getByRole('heading', { name: 'Sign in' }).waitFor(WAIT);
    expect(await replay.getByText('Signed in as').count()).toBe(0);
    expect(await axeViolations(replay)).toEqual([]);
  });

  it('shows an approver only the calls the table allows them, and a refused one as not found', async () => {
    const print = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1, title: 'Board minutes' });
    const remove = await holdCall(fixture, 'delete_note', { id: 'n2' });

    const luis = await browser.signIn(`${fixture.url}/approvals/`, TOKENS.luis);
    await luis.getByRole('link', { name: 'delete_note' }).waitFor(WAIT);
    expect(await luis.getByRole('link', { name: 'print_note' }).count()).toBe(0);
    expect(await luis.getByText('Board minutes').count()).toBe(0);
    expect(await axeViolations(luis)).toEqual([]);

    await luis.goto(`${fixture.url}/approvals/approvals/${encodeURIComponent(print)}`);
    await luis.getByRole('heading', { name: 'Not found' }).waitFor(WAIT);
    expect(await luis.getByText('Board minutes').count()).toBe(0);
    expect(await axeViolations(luis)).toEqual([]);

    const ana = await browser.signIn(`${fixture.url}/approvals/`, TOKENS.ana);
    await ana.getByRole('link', { name: 'print_note' }).waitFor(WAIT);
    expect(await ana.getByRole('link', { name: 'delete_note' }).count()).toBe(0);
    await ana.goto(`${fixture.url}/approvals/approvals/${encodeURIComponent(remove)}`);
    await ana.getByRole('heading', { name: 'Not found' }).waitFor(WAIT);
    expect(await axeViolations(ana)).toEqual([]);
  });
});
