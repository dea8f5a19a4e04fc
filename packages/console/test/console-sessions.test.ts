import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryConsoleSessionStore, tokenAuthentication, type TokenAuthenticationOptions } from '../src/index.js';
import { AGENT, TOKENS, holdCall, send, startConsoleFixture, type Answer, type ConsoleFixture } from './support/console-fixture.js';
import { PageClient } from './support/page-client.js';

const MINUTE = 60_000;
const COOKIE = 'milpa_console_session';

let fixture: ConsoleFixture;
let clock = Date.parse('2026-03-01T09:00:00Z');

afterEach(async () => {
  await fixture?.close();
});

/** The fixture with its own token authentication (a clock the test moves), answered with it. */
async function startWith(
  options: Partial<TokenAuthenticationOptions> = {},
  consoleOptions: Parameters<typeof startConsoleFixture>[0] = {},
) {
  const auth = tokenAuthentication({
    tokens: { [TOKENS.ana]: 'user:ana', [TOKENS.luis]: 'user:luis', [TOKENS.agent]: AGENT },
    now: () => clock,
    ...options,
  });
  fixture = await startConsoleFixture({ ...auth, ...consoleOptions });
  return auth;
}

function sessionCookieOf(answer: Answer): string | null {
  const cookies = answer.headers['set-cookie'];
  const found = (Array.isArray(cookies) ? cookies : []).find((cookie) => cookie.startsWith(`${COOKIE}=`));
  return found === undefined ? null : found.split(';')[0]!.slice(COOKIE.length + 1);
}

/** A browser without a session (just the CSRF cookie) signing in with `token`, bringing `cookie` along. */
async function signIn(token: string, cookie = ''): Promise<{ answer: Answer; session: string | null; csrfCookie: string }> {
  const browser = new PageClient(fixture.url, null);
  await browser.get('/approvals/login');
  const answer = await browser.post(
    '/approvals/login',
    { _csrf: browser.csrf, token },
    { Cookie: cookie === '' ? browser.cookie : `${browser.cookie}; ${cookie}` },
  );
  return { answer, session: sessionCookieOf(answer), csrfCookie: browser.cookie };
}

/** GET `path` with the session cookie `session` (and the CSRF cookie). */
function getWith(session: string, csrfCookie: string, path = '/approvals/'): Promise<Answer> {
  return send(`${fixture.url}${path}`, { headers: { Cookie: `${csrfCookie}; ${COOKIE}=${session}` } });
}

function isSignedIn(answer: Answer, principal: string): boolean {
  return answer.status === 200 && answer.body.includes(`Signed in as <strong>${principal}</strong>`);
}

function isSentToSignIn(answer: Answer): boolean {
  return answer.status === 303 && answer.headers.location === '/approvals/login';
}

describe('createApprovalConsole sessions', () => {
  describe('sign-in', () => {
    it('puts an opaque random id in the cookie, never the token, and a new one at every sign-in', async () => {
      await startWith();
      const first = await signIn(TOKENS.ana);
      const second = await signIn(TOKENS.ana);
      expect(first.session).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(first.session).not.toContain(TOKENS.ana);
      expect(second.session).not.toBe(first.session);
      expect(first.answer.headers['set-cookie']![0]).toMatch(/; Path=\/approvals\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
      expect(isSignedIn(await getWith(first.session!, first.csrfCookie), 'user:ana')).toBe(true);
      expect(isSignedIn(await getWith(second.session!, second.csrfCookie), 'user:ana')).toBe(true);
      // The token itself in the cookie (what earlier versions stored) signs nobody in.
      expect(isSentToSignIn(await getWith(TOKENS.ana, first.csrfCookie))).toBe(true);
    });

    it('marks the session cookie Secure with secureCookies', async () => {
      await startWith({}, { secureCookies: true });
      const { answer } = await signIn(TOKENS.ana);
      expect(answer.headers['set-cookie']![0]).toMatch(/; HttpOnly; SameSite=Strict; Secure; Max-Age=43200$/);
    });

    it('never adopts a session id planted before sign-in, and ends it', async () => {
      await startWith();
      const planted = 'A'.repeat(43);
      const attacker = await signIn(TOKENS.luis);
      for (const cookie of [planted, attacker.session!]) {
        const victim = await signIn(TOKENS.ana, `${COOKIE}=${cookie}`);
        expect(victim.session).not.toBe(cookie);
        expect(isSignedIn(await getWith(victim.session!, victim.csrfCookie), 'user:ana')).toBe(true);
        expect(isSentToSignIn(await getWith(cookie, victim.csrfCookie))).toBe(true);
      }
    });

    it('keeps at most the store bound of sessions: endless sign-ins end the oldest first', async () => {
      await startWith({ sessionStore: new InMemoryConsoleSessionStore({ maxSessions: 3 }) });
      const sessions: { session: string | null; csrfCookie: string }[] = [];
      for (let index = 0; index < 5; index += 1) sessions.push(await signIn(TOKENS.ana));
      const live = [];
      for (const { session, csrfCookie } of sessions) live.push(isSignedIn(await getWith(session!, csrfCookie), 'user:ana'));
      expect(live).toEqual([false, false, true, true, true]);
    });
  });

  describe('sign-out', () => {
    it('revokes the session on the server: the old cookie replayed afterwards is refused, for pages, posts and the stream', async () => {
      await startWith();
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      const { session, csrfCookie } = await signIn(TOKENS.ana);
      const page = await getWith(session!, csrfCookie, `/approvals/approvals/${id}`);
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
      const cookie = `${csrfCookie}; ${COOKIE}=${session}`;
      const form = (fields: Record<string, string>) => ({
        method: 'POST',
        headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded', Origin: fixture.url },
        body: new URLSearchParams(fields).toString(),
      });
      const out = await send(`${fixture.url}/approvals/logout`, form({ _csrf: csrf }));
      expect(isSentToSignIn(out)).toBe(true);
      expect(out.headers['set-cookie']).toEqual([`${COOKIE}=; Path=/approvals/; HttpOnly; SameSite=Strict; Max-Age=0`]);

      expect(isSentToSignIn(await getWith(session!, csrfCookie))).toBe(true);
      expect(isSentToSignIn(await getWith(session!, csrfCookie, `/approvals/approvals/${id}`))).toBe(true);
      expect((await send(`${fixture.url}/approvals/events`, { headers: { Cookie: cookie } })).status).toBe(401);
      const replayed = await send(`${fixture.url}/approvals/approvals/${id}/grant`, form({ _csrf: csrf }));
      expect(replayed.status).toBe(401);
      expect((await fixture.verifier.store.get(id))?.approvals).toHaveLength(0);
    });
  });

  describe('sign-out of an ended session', () => {
    it('clears the stale cookie and sends the browser to the sign-in page', async () => {
      await startWith();
      const { session, csrfCookie } = await signIn(TOKENS.ana);
      const page = await getWith(session!, csrfCookie);
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
      clock += 31 * MINUTE;
      const out = await send(`${fixture.url}/approvals/logout`, {
        method: 'POST',
        headers: {
          Cookie: `${csrfCookie}; ${COOKIE}=${session}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: fixture.url,
        },
        body: new URLSearchParams({ _csrf: csrf }).toString(),
      });
      expect(isSentToSignIn(out)).toBe(true);
      expect(out.headers['set-cookie']).toEqual([`${COOKIE}=; Path=/approvals/; HttpOnly; SameSite=Strict; Max-Age=0`]);
    });
  });

  describe('lifetimes', () => {
    it('ends a session unused for the idle lifetime, and every use starts the wait again', async () => {
      await startWith();
      const { session, csrfCookie } = await signIn(TOKENS.ana);
      clock += 29 * MINUTE;
      expect(isSignedIn(await getWith(session!, csrfCookie), 'user:ana')).toBe(true);
      clock += 29 * MINUTE;
      expect(isSignedIn(await getWith(session!, csrfCookie), 'user:ana')).toBe(true);
      clock += 30 * MINUTE;
      expect(isSentToSignIn(await getWith(session!, csrfCookie))).toBe(true);
      clock -= 30 * MINUTE;
      // Once ended it stays ended, even if the clock were to say otherwise.
      expect(isSentToSignIn(await getWith(session!, csrfCookie))).toBe(true);
    });

    it('ends a session at the absolute lifetime however often it is used, and honours custom lifetimes', async () => {
      await startWith();
      const { session, csrfCookie } = await signIn(TOKENS.ana);
      const start = clock;
      while (clock - start < 12 * 60 * MINUTE - 20 * MINUTE) {
        clock += 20 * MINUTE;
        expect(isSignedIn(await getWith(session!, csrfCookie), 'user:ana')).toBe(true);
      }
      clock = start + 12 * 60 * MINUTE;
      expect(isSentToSignIn(await getWith(session!, csrfCookie))).toBe(true);

      await fixture.close();
      await startWith({ idleTimeoutMs: 5 * MINUTE, absoluteTimeoutMs: 60 * MINUTE });
      const short = await signIn(TOKENS.ana);
      expect(short.answer.headers['set-cookie']![0]).toMatch(/; Max-Age=3600$/);
      clock += 5 * MINUTE;
      expect(isSentToSignIn(await getWith(short.session!, short.csrfCookie))).toBe(true);
    });
  });

  describe('token removal', () => {
    it('ends the live sessions of a removed token and stops it signing in, leaving other approvers signed in', async () => {
      const auth = await startWith();
      const ana = await signIn(TOKENS.ana);
      const luis = await signIn(TOKENS.luis);
      expect(isSignedIn(await getWith(ana.session!, ana.csrfCookie), 'user:ana')).toBe(true);
      expect(auth.removeToken(TOKENS.ana)).toBe(true);
      expect(isSentToSignIn(await getWith(ana.session!, ana.csrfCookie))).toBe(true);
      expect((await new PageClient(fixture.url, TOKENS.ana).get('/approvals/')).status).toBe(303);
      expect((await signIn(TOKENS.ana)).answer.status).toBe(401);
      expect(isSignedIn(await getWith(luis.session!, luis.csrfCookie), 'user:luis')).toBe(true);
    });
  });

  describe('a failing session store', () => {
    it('signs nobody in and never echoes the failure', async () => {
      const broken = new InMemoryConsoleSessionStore();
      await startWith({ sessionStore: broken });
      const { session, csrfCookie } = await signIn(TOKENS.ana);
      broken.get = () => {
        throw new Error('session database down');
      };
      broken.create = () => {
        throw new Error('session database down');
      };
      const page = await getWith(session!, csrfCookie);
      expect(isSentToSignIn(page)).toBe(true);
      const again = await signIn(TOKENS.ana);
      expect(again.answer.status).toBe(503);
      expect(again.session).toBeNull();
      expect(again.answer.body).not.toContain('session database down');
    });
  });

  describe('bearer tokens', () => {
    it('authenticate each request on their own, without a session cookie', async () => {
      await startWith();
      const answer = await new PageClient(fixture.url, TOKENS.ana).get('/approvals/');
      expect(isSignedIn(answer, 'user:ana')).toBe(true);
      expect(sessionCookieOf(answer)).toBeNull();
    });
  });

  describe('login option', () => {
    it('refuses a login without signIn and signOut (the earlier token-in-cookie shape)', async () => {
      await expect(startConsoleFixture({ login: { cookieName: COOKIE, accepts: () => true } as never })).rejects.toThrow(
        'signIn(token) and signOut(sessionId)',
      );
    });
  });
});
