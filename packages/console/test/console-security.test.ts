import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../src/index.js';
import { AGENT, TOKENS, holdCall, send, startConsoleFixture, type ConsoleFixture } from './support/console-fixture.js';
import { PageClient } from './support/page-client.js';

let fixture: ConsoleFixture;

beforeEach(async () => {
  fixture = await startConsoleFixture();
});

afterEach(async () => {
  await fixture.close();
});

async function signedIn(token: string, path = '/approvals/'): Promise<PageClient> {
  const client = new PageClient(fixture.url, token);
  await client.get(path);
  return client;
}

async function recordOf(id: string) {
  const record = await fixture.verifier.store.get(id);
  if (record === null) throw new Error(`no record ${id}`);
  return record;
}

function alertText(body: string): string {
  const text = /role="alert"><p>([^<]*)<\/p>/.exec(body)?.[1] ?? '';
  return text
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

describe('createApprovalConsole', () => {
  describe('authentication', () => {
    it('answers 401 to a page, a form post and the event stream without an authenticated approver', async () => {
      const bare = await startConsoleFixture({ login: undefined });
      try {
        const held = await bare.registry.call('delete_note', { id: 'n1' }, bare.agent);
        const id = (held.data as { approval_id: string }).approval_id;
        const forged = new PageClient(bare.url, 'not-a-token-at-all-0000');
        for (const path of ['/approvals/', `/approvals/approvals/${id}`, '/approvals/history', '/approvals/events']) {
          expect((await send(`${bare.url}${path}`)).status).toBe(401);
          expect((await forged.get(path)).status).toBe(401);
        }
        const post = await forged.post(`/approvals/approvals/${id}/grant`, { _csrf: 'x' });
        expect(post.status).toBe(401);
        expect((await bare.verifier.store.get(id))?.approvals).toHaveLength(0);
      } finally {
        await bare.close();
      }
    });

    it('sends a browser without a session to the sign-in page, and refuses its posts and stream', async () => {
      const id = await holdCall(fixture, 'delete_note', { id: 'n1' });
      const page = await send(`${fixture.url}/approvals/approvals/${id}`);
      expect(page.status).toBe(303);
      expect(page.headers.location).toBe('/approvals/login');
      expect((await send(`${fixture.url}/approvals/events`)).status).toBe(401);
      const post = await new PageClient(fixture.url, null).post(`/approvals/approvals/${id}/grant`, { _csrf: 'x' });
      expect(post.status).toBe(401);
      expect((await recordOf(id)).approvals).toHaveLength(0);
    });

    it('fails closed when authenticate throws', async () => {
      const throwing = await startConsoleFixture({
        authenticate: () => {
          throw new Error('session store down');
        },
        login: undefined,
      });
      try {
        const answer = await send(`${throwing.url}/approvals/`);
        expect(answer.status).toBe(401);
        expect(answer.body).not.toContain('session store down');
      } finally {
        await throwing.close();
      }
    });
  });

  describe('headers and cookies', () => {
    it('sends the strict Content-Security-Policy and nosniff on pages and assets', async () => {
      const ana = new PageClient(fixture.url, TOKENS.ana);
      for (const path of ['/approvals/', '/approvals/history', '/approvals/assets/console.js', '/approvals/assets/console.css']) {
        const answer = await ana.get(path);
        expect(answer.status).toBe(200);
        expect(answer.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
        expect(answer.headers['x-content-type-options']).toBe('nosniff');
        expect(answer.headers['x-frame-options']).toBe('DENY');
      }
      expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
      expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
      expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    });

    it('serves pages without inline scripts, inline styles or event handler attributes', async () => {
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      const ana = new PageClient(fixture.url, TOKENS.ana);
      for (const path of ['/approvals/', `/approvals/approvals/${id}`, '/approvals/history']) {
        const { body } = await ana.get(path);
        expect(body.match(/<script\b[^>]*>/g)).toEqual(['<script src="/approvals/assets/console.js" defer>']);
        expect(body).not.toMatch(/\son[a-z]+=/i);
        expect(body).not.toMatch(/\sstyle=/i);
        expect(body).not.toContain('<style');
      }
    });

    it('sets the CSRF cookie HttpOnly, SameSite=Strict, on the console path, Secure when asked', async () => {
      const answer = await send(`${fixture.url}/approvals/`, { headers: { Authorization: `Bearer ${TOKENS.ana}` } });
      const cookie = (answer.headers['set-cookie'] as string[])[0]!;
      expect(cookie).toMatch(/^milpa_console_csrf=[A-Za-z0-9_-]{32}; Path=\/approvals\/; HttpOnly; SameSite=Strict$/);
      const secure = await startConsoleFixture({ secureCookies: true });
      try {
        const over = await send(`${secure.url}/approvals/`, { headers: { Authorization: `Bearer ${TOKENS.ana}` } });
        expect((over.headers['set-cookie'] as string[])[0]).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
      } finally {
        await secure.close();
      }
    });

    it('signs in with a token into an HttpOnly SameSite=Strict session cookie and refuses a wrong token', async () => {
      const browser = new PageClient(fixture.url, null);
      const page = await browser.get('/approvals/login');
      expect(page.status).toBe(200);
      const wrong = await browser.post('/approvals/login', { _csrf: browser.csrf, token: 'wrong-token-0123456789' });
      expect(wrong.status).toBe(401);
      expect(alertText(wrong.body)).toBe('That token does not sign anyone in.');
      const forged = await browser.post('/approvals/login', { token: TOKENS.ana });
      expect(forged.status).toBe(403);
      const right = await browser.post('/approvals/login', { _csrf: browser.csrf, token: TOKENS.ana });
      expect(right.status).toBe(303);
      expect(right.headers.location).toBe('/approvals/');
      const session = (right.headers['set-cookie'] as string[])[0]!;
      expect(session).toMatch(/^milpa_console_session=[A-Za-z0-9_-]{43}; Path=\/approvals\/; HttpOnly; SameSite=Strict; Max-Age=43200$/);
      const home = await send(`${fixture.url}/approvals/`, {
        headers: { Cookie: `${browser.cookie}; ${session.split(';')[0]!}` },
      });
      expect(home.body).toContain('Signed in as <strong>user:ana</strong>');
    });

    it('signs out only with a valid CSRF token, clearing the session cookie', async () => {
      const ana = await signedIn(TOKENS.ana);
      const forged = await ana.post('/approvals/logout', {});
      expect(forged.status).toBe(403);
      const out = await ana.post('/approvals/logout', { _csrf: ana.csrf });
      expect(out.status).toBe(303);
      expect(out.headers.location).toBe('/approvals/login');
      expect((out.headers['set-cookie'] as string[])[0]).toBe(
        'milpa_console_session=; Path=/approvals/; HttpOnly; SameSite=Strict; Max-Age=0',
      );
    });
  });

  describe('state changes', () => {
    it("refuses a forged POST without a CSRF token, and one with another approver's token", async () => {
      const id = await holdCall(fixture, 'delete_note', { id: 'n1' });
      const ana = await signedIn(TOKENS.ana);
      const without = await ana.post(`/approvals/approvals/${id}/grant`, {});
      expect(without.status).toBe(403);
      expect(without.body).toContain('no valid CSRF token');
      const luis = await signedIn(TOKENS.luis);
      const borrowed = await luis.post(`/approvals/approvals/${id}/grant`, { _csrf: ana.csrf });
      expect(borrowed.status).toBe(403);
      const noCookie = await new PageClient(fixture.url, TOKENS.ana).post(`/approvals/approvals/${id}/grant`, { _csrf: ana.csrf });
      expect(noCookie.status).toBe(403);
      expect((await recordOf(id)).approvals).toHaveLength(0);
    });

    it('refuses a cross-origin POST by Origin and by Sec-Fetch-Site, even with a valid token', async () => {
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      const ana = await signedIn(TOKENS.ana);
      const fromOrigin = await ana.post(`/approvals/approvals/${id}/grant`, { _csrf: ana.csrf }, { Origin: 'https://evil.example' });
      expect(fromOrigin.status).toBe(403);
      expect(fromOrigin.body).toContain('another origin');
      const fromSite = await ana.post(`/approvals/approvals/${id}/grant`, { _csrf: ana.csrf }, { 'Sec-Fetch-Site': 'cross-site' });
      expect(fromSite.status).toBe(403);
      expect(fromSite.body).toContain('another site');
      expect((await recordOf(id)).result).toBeNull();
      const sameOrigin = await ana.post(
        `/approvals/approvals/${id}/grant`,
        { _csrf: ana.csrf },
        { Origin: fixture.url, 'Sec-Fetch-Site': 'same-origin' },
      );
      expect(sameOrigin.status).toBe(303);
      expect((await recordOf(id)).result?.status).toBe('passed');
    });

    it('refuses bodies that are not forms, and forms that are too large', async () => {
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      const ana = await signedIn(TOKENS.ana);
      const json = await send(`${fixture.url}/approvals/approvals/${id}/grant`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKENS.ana}`, Cookie: ana.cookie, 'Content-Type': 'application/json' },
        body: JSON.stringify({ _csrf: ana.csrf }),
      });
      expect(json.status).toBe(415);
      const large = await ana.post(`/approvals/approvals/${id}/grant`, { _csrf: ana.csrf, reason: 'x'.repeat(70_000) });
      expect(large.status).toBe(413);
      expect((await recordOf(id)).result).toBeNull();
    });

    it('takes the approver from authenticate only, never from the form', async () => {
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      const ana = await signedIn(TOKENS.ana);
      const answer = await ana.post(`/approvals/approvals/${id}/grant`, {
        _csrf: ana.csrf,
        principal: 'user:luis',
        approver: 'user:luis',
        requested_by: 'user:ana',
      });
      expect(answer.status).toBe(303);
      const record = await recordOf(id);
      expect(record.approvals.map((approval) => approval.principal)).toEqual(['user:ana']);
      expect(record.result?.principal).toBe('user:ana');
    });

    it("refuses the requester's own approval and says why, and nothing is recorded", async () => {
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      const agent = await signedIn(TOKENS.agent, `/approvals/approvals/${id}`);
      const page = await agent.get(`/approvals/approvals/${id}`);
      expect(page.body).toContain('You asked for this call, so you cannot approve it');
      const answer = await agent.post(`/approvals/approvals/${id}/grant`, { _csrf: agent.csrf });
      expect(answer.status).toBe(403);
      expect(alertText(answer.body)).toBe(
        `You asked for this call (${AGENT}), so you cannot approve it: someone other than the requester has to. Nothing was recorded.`,
      );
      expect((await recordOf(id)).approvals).toHaveLength(0);
      expect(fixture.executed).toHaveLength(0);
    });

    it('shows a clear message, not an error page, when a decided request is decided again', async () => {
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      const ana = await signedIn(TOKENS.ana);
      const luis = await signedIn(TOKENS.luis);
      expect((await ana.post(`/approvals/approvals/${id}/grant`, { _csrf: ana.csrf })).status).toBe(303);
      for (const [verb, fields] of [
        ['grant', {}],
        ['reject', { reason: 'too late' }],
      ] as const) {
        const again = await luis.post(`/approvals/approvals/${id}/${verb}`, { _csrf: luis.csrf, ...fields });
        expect(again.status).toBe(409);
        expect(again.body).toContain('<h1>Approve <code>print_note</code>?</h1>');
        expect(alertText(again.body)).toBe('This request was already decided (granted by user:ana); nothing changed.');
        expect(again.body).toContain('This request is closed');
      }
      expect((await recordOf(id)).result?.principal).toBe('user:ana');
    });

    it('counts dual approvals on the server: one approver twice is refused, a second approver completes it', async () => {
      const id = await holdCall(fixture, 'delete_note', { id: 'n7' });
      const ana = await signedIn(TOKENS.ana);
      const first = await ana.post(`/approvals/approvals/${id}/grant`, { _csrf: ana.csrf });
      expect(first.headers.location).toBe(`/approvals/approvals/${id}?notice=recorded`);
      expect((await ana.get(`/approvals/approvals/${id}`)).body).toContain('Waiting for approval: 1 of 2 (user:ana) approvals so far.');
      const twice = await ana.post(`/approvals/approvals/${id}/grant`, { _csrf: ana.csrf });
      expect(twice.status).toBe(409);
      expect(alertText(twice.body)).toBe(
        "You have already approved this request; policy 'dual' needs 2 approvals from different people. Nothing changed.",
      );
      expect((await fixture.registry.resume(id, fixture.agent)).getCode()).toBe('APPROVAL_PENDING');
      const luis = await signedIn(TOKENS.luis);
      const second = await luis.post(`/approvals/approvals/${id}/grant`, { _csrf: luis.csrf });
      expect(second.headers.location).toBe(`/approvals/approvals/${id}?notice=granted`);
      const done = await fixture.registry.resume(id, fixture.agent);
      expect(done.success).toBe(true);
      expect(fixture.executed).toEqual([{ tool: 'delete_note', args: { id: 'n7' } }]);
      expect((await fixture.registry.resume(id, fixture.agent)).success).toBe(false);
      expect(fixture.executed).toHaveLength(1);
    });

    it('refuses an edit the schema rejects on the field, and runs a reviewed and confirmed edit', async () => {
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 2, api_key: 'hunter2-secret' });
      const ana = await signedIn(TOKENS.ana);
      const detail = await ana.get(`/approvals/approvals/${id}`);
      expect(detail.body).not.toContain('name="edit.');
      expect(detail.body).toContain(`href="/approvals/approvals/${id}/edit"`);
      const page = await ana.get(`/approvals/approvals/${id}/edit`);
      expect(page.body).toContain('name="edit.copies"');
      expect(page.body).toMatch(/name="edit\.api_key"[^>]*type="password"[^>]*value=""/);
      expect(page.body).not.toContain('hunter2-secret');
      const proposal = /name="proposal" value="([^"]+)"/.exec(page.body)![1]!;
      const invalid = await ana.post(`/approvals/approvals/${id}/review`, { _csrf: ana.csrf, proposal, 'edit.copies': '50' });
      expect(invalid.status).toBe(422);
      expect(invalid.body).toContain('Value too large (max: 10)');
      expect(invalid.body).toMatch(/name="edit\.copies"[^>]*aria-invalid="true" autofocus[^>]*value="50"/);
      const notNumber = await ana.post(`/approvals/approvals/${id}/review`, { _csrf: ana.csrf, proposal, 'edit.copies': 'many' });
      expect(notNumber.body).toContain('Enter a whole number, like 3.');
      const inline = await ana.post(`/approvals/approvals/${id}/grant`, { _csrf: ana.csrf, 'edit.copies': '3' });
      expect(inline.status).toBe(422);
      expect(alertText(inline.body)).toBe(
        'A grant carries no argument values: use "Edit arguments…" to change them. Nothing was recorded.',
      );
      expect((await recordOf(id)).approvals).toHaveLength(0);
      const review = await ana.post(`/approvals/approvals/${id}/review`, {
        _csrf: ana.csrf,
        proposal,
        'edit.copies': '3',
        'edit.id': 'n1',
      });
      expect(review.status).toBe(200);
      expect(review.body).toContain('<code>2</code></td><td data-label="Proposed"><code>3</code>');
      expect((await recordOf(id)).approvals).toHaveLength(0);
      const sealed = /name="sealed" value="([^"]+)"/.exec(review.body)![1]!;
      const valid = await ana.post(`/approvals/approvals/${id}/grant`, { _csrf: ana.csrf, sealed });
      expect(valid.status).toBe(303);
      expect((await recordOf(id)).approvals[0]?.changes).toEqual({ copies: 3 });
      const done = await fixture.registry.resume(id, fixture.agent);
      expect(done.data).toEqual({ printed: 3 });
      expect(fixture.executed).toEqual([{ tool: 'print_note', args: { id: 'n1', copies: 3, api_key: 'hunter2-secret' } }]);
    });

    it(
      'shows a secret repeated under an ordinary field redacted, ' + 'never offers that field for editing, and runs the held value',
      async () => {
        const args = { id: 'n1', copies: 2, api_key: 'hunter2-secret', title: 'key is hunter2-secret' };
        const id = await holdCall(fixture, 'print_note', args);
        const ana = await signedIn(TOKENS.ana);
        const list = await ana.get('/approvals/');
        const page = await ana.get(`/approvals/approvals/${id}`);
        for (const body of [list.body, page.body]) expect(body).not.toContain('hunter2-secret');
        expect(page.body).toContain('key is ***REDACTED***');
        const edit = await ana.get(`/approvals/approvals/${id}/edit`);
        expect(edit.body).toContain('name="edit.copies"');
        expect(edit.body).not.toContain('name="edit.title"');
        const proposal = /name="proposal" value="([^"]+)"/.exec(edit.body)![1]!;
        const refused = await ana.post(`/approvals/approvals/${id}/review`, {
          _csrf: ana.csrf,
          proposal,
          'edit.title': 'key is ***REDACTED***',
        });
        expect(refused.status).toBe(422);
        expect(refused.body).toContain('The field &#39;title&#39; cannot be edited here; nothing was recorded.');
        const granted = await ana.post(`/approvals/approvals/${id}/grant`, { _csrf: ana.csrf, proposal });
        expect(granted.status).toBe(303);
        expect((await fixture.registry.resume(id, fixture.agent)).success).toBe(true);
        expect(fixture.executed).toEqual([{ tool: 'print_note', args }]);
      },
    );

    it('rejects with a required reason and moves the item to the history', async () => {
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      const ana = await signedIn(TOKENS.ana);
      const blank = await ana.post(`/approvals/approvals/${id}/reject`, { _csrf: ana.csrf, reason: '  ' });
      expect(blank.status).toBe(422);
      expect(alertText(blank.body)).toBe('Give a reason for the rejection; nothing was recorded.');
      const answer = await ana.post(`/approvals/approvals/${id}/reject`, { _csrf: ana.csrf, reason: 'wrong note' });
      expect(answer.headers.location).toBe(`/approvals/approvals/${id}?notice=rejected`);
      expect((await ana.get('/approvals/')).body).toContain('Nothing is waiting for approval.');
      const history = await ana.get('/approvals/history');
      expect(history.body).toContain('Rejected');
      expect(history.body).toContain('wrong note');
      const resumed = await fixture.registry.resume(id, fixture.agent);
      expect(resumed.getCode()).toBe('APPROVAL_DENIED');
      expect(fixture.executed).toHaveLength(0);
    });
  });

  describe('escaping', () => {
    it('renders a script in a tool argument, requester or reason as inert text', async () => {
      const payload = '<script>alert(1)</script><img src=x onerror="alert(2)">';
      const id = await holdCall(fixture, 'print_note', { id: `"><svg onload=alert(3)>`, copies: 1, title: payload });
      const ana = await signedIn(TOKENS.ana);
      for (const path of ['/approvals/', `/approvals/approvals/${id}`]) {
        const { body } = await ana.get(path);
        expect(body).not.toContain('<script>alert');
        expect(body).not.toContain('<img src=x');
        expect(body).not.toContain('<svg');
      }
      const detail = await ana.get(`/approvals/approvals/${id}`);
      expect(detail.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
      const edit = await ana.get(`/approvals/approvals/${id}/edit`);
      expect(edit.body).toContain('>\n&quot;&gt;&lt;svg onload=alert(3)&gt;</textarea>');
      expect(edit.body).not.toContain('<svg');
      await ana.post(`/approvals/approvals/${id}/reject`, { _csrf: ana.csrf, reason: payload });
      const history = await ana.get('/approvals/history');
      expect(history.body).not.toContain('<script>alert');
      expect(history.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    });
  });

  describe('routing', () => {
    it('calls next() outside its base path and reads the full path Express keeps in originalUrl', async () => {
      const { createApprovalConsole } = await import('../src/index.js');
      const handler = createApprovalConsole({
        verifier: fixture.verifier,
        authenticate: () => ({ principal: 'user:ana' }),
        basePath: '/approvals',
      });
      let nextCalled = 0;
      const response = { headersSent: false, writeHead: () => response, end: () => undefined } as never;
      handler({ url: '/elsewhere', method: 'GET', headers: {} } as never, response, () => void (nextCalled += 1));
      expect(nextCalled).toBe(1);
      let status = 0;
      await new Promise<void>((resolve) => {
        const mounted = {
          headersSent: false,
          writeHead: (code: number) => {
            status = code;
            return mounted;
          },
          end: () => resolve(),
        };
        // Express strips the mount path from url but keeps it in originalUrl.
        handler(
          { url: '/assets/console.css', originalUrl: '/approvals/assets/console.css', method: 'GET', headers: {}, socket: {} } as never,
          mounted as never,
          () => resolve(),
        );
      });
      expect(status).toBe(200);
      handler.close();
    });

    it('answers 404 for an unknown approval id and 405 for a GET on a decision', async () => {
      const ana = await signedIn(TOKENS.ana);
      const unknown = await ana.get('/approvals/approvals/does-not-exist');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toContain('No approval request has this id.');
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      expect((await ana.get(`/approvals/approvals/${id}/grant`)).status).toBe(405);
    });
  });

  describe('live updates', () => {
    it('streams a change event when a call is held and when it is decided', async () => {
      const stream = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
        import('node:http').then(({ request }) => {
          const outgoing = request(`${fixture.url}/approvals/events`, { headers: { Authorization: `Bearer ${TOKENS.ana}` } }, resolve);
          outgoing.on('error', reject);
          outgoing.end();
        }, reject);
      });
      expect(stream.statusCode).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      stream.setEncoding('utf8');
      let received = '';
      const changes = (count: number): Promise<void> =>
        new Promise((resolve) => {
          const check = (): void => {
            if ((received.match(/event: change/g) ?? []).length >= count) {
              stream.off('data', onData);
              resolve();
            }
          };
          const onData = (chunk: string): void => {
            received += chunk;
            check();
          };
          stream.on('data', onData);
          check();
        });
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      await changes(1);
      await fixture.verifier.grant(new (await import('@milpa/core')).VerificationRequest(null, 'single', {}, null, id), 'user:luis');
      await changes(2);
      stream.destroy();
    });
  });
});
