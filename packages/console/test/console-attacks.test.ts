import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Type, defineTool } from '@milpa/core';
import { tokenAuthentication, type ApprovalConsoleOptions } from '../src/index.js';
import { AGENT, TOKENS, holdCall, send, startConsoleFixture, type ConsoleFixture } from './support/console-fixture.js';
import { formFields } from './support/form-fields.js';
import { PageClient } from './support/page-client.js';
import { RecordingClient } from './support/recording-client.js';

let fixture: ConsoleFixture;
const received: string[] = [];

afterEach(async () => {
  await fixture.close();
  received.length = 0;
});

const SESSION_COOKIE = 'milpa_console_session';
const TOKEN_TABLE = { [TOKENS.ana]: 'user:ana', [TOKENS.luis]: 'user:luis', [TOKENS.agent]: AGENT };

const page = (id: string, step = ''): string => `/approvals/approvals/${encodeURIComponent(id)}${step === '' ? '' : `/${step}`}`;

/** A tool whose secret fields are spelled the ways people spell them, next to unicode field names. */
const CALL_API = defineTool({
  name: 'call_api',
  description: 'Calls an API.',
  input: Type.Object({
    url: Type.String({ maxLength: 100 }),
    apiKey: Type.Optional(Type.String()),
    'API-KEY': Type.Optional(Type.String()),
    x_api_key: Type.Optional(Type.String()),
    título: Type.Optional(Type.String()),
    'na\u202Eme': Type.Optional(Type.String()),
  }),
  mutating: true,
  handler: () => ({ ok: true }),
});

const sent: Record<string, unknown>[] = [];
const SEND_MAIL = defineTool({
  name: 'send_mail',
  description: 'Sends mail.',
  input: Type.Object({ to: Type.String(), body: Type.String(), urgent: Type.Optional(Type.Boolean()) }),
  mutating: true,
  handler: (args) => {
    sent.push({ ...args });
    return { ok: true };
  },
});

async function start(overrides: Partial<ApprovalConsoleOptions> = {}): Promise<void> {
  sent.length = 0;
  fixture = await startConsoleFixture(overrides, { tools: [CALL_API, SEND_MAIL] });
}

function approver(token: string): Promise<RecordingClient> {
  return RecordingClient.signIn(fixture.url, token, received);
}

/** Opens the edit page, sets `values` on the form as a browser would, and posts it for review. */
async function review(client: RecordingClient, id: string, values: Record<string, string>) {
  const edit = await client.get(page(id, 'edit'));
  const form = formFields(edit.body, '/review').map(([name, value]): [string, string] => [
    name,
    values[name.replace(/^edit\./, '')] ?? value,
  ]);
  return client.post(page(id, 'review'), form);
}

function sealedOf(body: string): string {
  return /name="sealed" value="([^"]+)"/.exec(body)![1]!;
}

/** Signs in on the sign-in page with `token`: the session id and the CSRF cookie. */
async function signInWithSession(token: string): Promise<{ session: string; csrfCookie: string }> {
  const browser = new PageClient(fixture.url, null);
  await browser.get('/approvals/login');
  const answer = await browser.post('/approvals/login', { _csrf: browser.csrf, token });
  const cookie = (answer.headers['set-cookie'] ?? []) as string[];
  const session = cookie
    .find((value) => value.startsWith(`${SESSION_COOKIE}=`))!
    .split(';')[0]!
    .slice(SESSION_COOKIE.length + 1);
  return { session, csrfCookie: browser.cookie };
}

/** Opens `/events` with a session cookie; collects what the stream sends until it ends. */
function openStream(who: { session: string; csrfCookie: string }) {
  return new Promise<{ text: () => string; ended: () => boolean; destroy: () => void }>((resolve, reject) => {
    let text = '';
    let ended = false;
    const request = httpRequest(
      `${fixture.url}/approvals/events`,
      { headers: { Cookie: `${who.csrfCookie}; ${SESSION_COOKIE}=${who.session}` } },
      (response) => {
        expect(response.statusCode).toBe(200);
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => (ended = true));
        resolve({ text: () => text, ended: () => ended, destroy: () => request.destroy() });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('console attacks', () => {
  describe('live streams of an approver who lost access', () => {
    it('ends the open stream of a removed token at the next change, before telling it anything', async () => {
      const auth = tokenAuthentication({ tokens: TOKEN_TABLE });
      await start(auth);
      const ana = await signInWithSession(TOKENS.ana);
      const luis = await signInWithSession(TOKENS.luis);
      const anaStream = await openStream(ana);
      const luisStream = await openStream(luis);
      expect(auth.removeToken(TOKENS.ana)).toBe(true);
      await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      await until(() => luisStream.text().includes('event: change'), "Luis's change event");
      await until(() => anaStream.ended(), "the end of Ana's stream");
      expect(anaStream.text()).not.toContain('event: change');
      expect(luisStream.ended()).toBe(false);
      const cookie = `${ana.csrfCookie}; ${SESSION_COOKIE}=${ana.session}`;
      const again = await send(`${fixture.url}/approvals/events`, { headers: { Cookie: cookie } });
      expect(again.status).toBe(401);
      luisStream.destroy();
    });
  });

  describe("the runtime's extra secret names", () => {
    const FILE_CLAIM = defineTool({
      name: 'file_claim',
      description: 'Files a claim.',
      input: Type.Object({ claim: Type.String(), ssn: Type.Optional(Type.String()) }),
      mutating: true,
      handler: () => ({ ok: true }),
    });

    it('hides a field named by sensitiveFields (set in an edit) from every page, as the runtime hides it from its logs', async () => {
      sent.length = 0;
      fixture = await startConsoleFixture({ sensitiveFields: ['ssn'] }, { tools: [FILE_CLAIM], registry: { sensitiveFields: ['ssn'] } });
      const id = await holdCall(fixture, 'file_claim', { claim: 'c1' });
      const ana = await approver(TOKENS.ana);
      const edit = await ana.get(page(id, 'edit'));
      expect(edit.body).toMatch(/name="edit\.ssn"[^>]*type="password"|type="password"[^>]*name="edit\.ssn"/);
      const reviewed = await review(ana, id, { ssn: '078-05-1120' });
      expect(reviewed.status).toBe(200);
      expect((await ana.post(page(id, 'grant'), { _csrf: ana.csrf, sealed: sealedOf(reviewed.body) })).status).toBe(303);
      const held = await holdCall(fixture, 'file_claim', { claim: 'c2', ssn: '219-09-9999' });
      const luis = await approver(TOKENS.luis);
      await luis.get(page(id));
      await luis.get(page(held));
      await luis.get(`${page(held)}/arguments/ssn`);
      await luis.get('/approvals/history');
      expect(received.filter((body) => body.includes('078-05-1120') || body.includes('219-09-9999'))).toEqual([]);
      expect((await fixture.verifier.store.get(id))?.approvals[0]?.changes).toEqual({ ssn: '078-05-1120' });
    });

    it('refuses a sensitiveFields entry that is not a name', async () => {
      await expect(startConsoleFixture({ sensitiveFields: ['--'] })).rejects.toThrow(/sensitiveFields/);
      fixture = await startConsoleFixture();
    });
  });

  describe('what held', () => {
    it('never shows secrets typed under other spellings (apiKey, API-KEY, x_api_key), refused or granted, to anyone', async () => {
      await start();
      const id = await holdCall(fixture, 'call_api', { url: 'https://example.test' });
      const ana = await approver(TOKENS.ana);
      const secrets = { apiKey: 'SECRET-AAAA-1', 'API-KEY': 'SECRET-BBBB-2', x_api_key: 'SECRET-CCCC-3' };
      expect((await review(ana, id, { ...secrets, url: 'x'.repeat(200) })).status).toBe(422);
      const reviewed = await review(ana, id, secrets);
      expect(reviewed.status).toBe(200);
      expect((await ana.post(page(id, 'grant'), { _csrf: ana.csrf, sealed: sealedOf(reviewed.body) })).status).toBe(303);
      const luis = await approver(TOKENS.luis);
      for (const path of [page(id), '/approvals/history', '/approvals/', page(id, 'edit')]) await luis.get(path);
      for (const field of Object.keys(secrets)) await luis.get(`${page(id)}/arguments/${encodeURIComponent(field)}`);
      expect(received.filter((body) => body.includes('SECRET-'))).toEqual([]);
      expect((await fixture.verifier.store.get(id))?.approvals[0]?.changes).toEqual(secrets);
    });

    it('refuses a sealed edit replayed after its grant, on another item, or by another approver', async () => {
      await start();
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      const other = await holdCall(fixture, 'print_note', { id: 'n2', copies: 1 });
      const ana = await approver(TOKENS.ana);
      const luis = await approver(TOKENS.luis);
      const sealed = sealedOf((await review(ana, id, { copies: '3' })).body);
      expect((await luis.post(page(id, 'grant'), { _csrf: luis.csrf, sealed })).status).toBe(403);
      expect((await ana.post(page(other, 'grant'), { _csrf: ana.csrf, sealed })).status).toBe(403);
      expect((await ana.post(page(id, 'grant'), { _csrf: ana.csrf, sealed })).status).toBe(303);
      expect((await ana.post(page(id, 'grant'), { _csrf: ana.csrf, sealed })).status).toBe(409);
      expect((await fixture.verifier.store.get(other))?.approvals).toEqual([]);
      expect((await fixture.verifier.store.get(id))?.approvals.map((approval) => approval.changes)).toEqual([{ copies: 3 }]);
    });

    it('keeps a dual approval consistent when an edited grant, a stale plain grant and a reject race', async () => {
      await start();
      for (let round = 0; round < 3; round += 1) {
        const id = await holdCall(fixture, 'delete_note', { id: `n${round}` });
        const ana = await approver(TOKENS.ana);
        const luis = await approver(TOKENS.luis);
        const plain = formFields((await luis.get(page(id))).body, '/grant');
        const sealed = sealedOf((await review(ana, id, { id: 'other' })).body);
        const [edited, stale, rejected] = await Promise.all([
          ana.post(page(id, 'grant'), { _csrf: ana.csrf, sealed }),
          luis.post(page(id, 'grant'), plain),
          luis.post(page(id, 'reject'), { _csrf: luis.csrf, reason: 'no' }),
        ]);
        const record = (await fixture.verifier.store.get(id))!;
        // The stale plain grant never approves the edited proposal; the item ends rejected.
        expect(stale.status).not.toBe(303);
        expect(rejected.status).toBe(303);
        expect(record.result?.status).toBe('failed');
        expect(record.approvals.map((approval) => approval.principal)).toEqual(edited.status === 303 ? ['user:ana'] : []);
      }
      expect(fixture.executed).toEqual([]);
    });

    it("refuses one approver's CSRF token to another, and a grant posted after authorize stopped allowing the approver", async () => {
      let allowAna = true;
      await start({ ...tokenAuthentication({ tokens: TOKEN_TABLE }), authorize: (who) => allowAna || who.principal !== 'user:ana' });
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      const ana = await approver(TOKENS.ana);
      const luis = await approver(TOKENS.luis);
      const form = formFields((await ana.get(page(id))).body, '/grant');
      expect((await luis.post(page(id, 'grant'), form)).status).toBe(403);
      allowAna = false;
      expect((await ana.post(page(id, 'grant'), form)).status).toBe(404);
      expect((await ana.get(page(id, 'edit'))).status).toBe(404);
      expect((await fixture.verifier.store.get(id))?.approvals).toEqual([]);
    });

    it("answers the whole-value route for a missing field, a prototype name or another item's field as not found", async () => {
      await start();
      const id = await holdCall(fixture, 'call_api', { url: 'https://example.test' });
      await holdCall(fixture, 'print_note', { id: 'n1', copies: 1, title: 'other item' });
      const ana = await approver(TOKENS.ana);
      for (const field of ['nope', '__proto__', 'constructor', 'toString', 'title', '%E0%A4%A']) {
        const answer = await ana.get(`${page(id)}/arguments/${field}`);
        expect(answer.status).toBe(404);
        expect(answer.body).not.toContain('other item');
      }
    });

    it('grants an edit next to a 1 MB field and runs both exactly; edits a unicode-named field keeping its line break', async () => {
      await start();
      const body = `${'y'.repeat(1_000_000)}\u202E`;
      const big = await holdCall(fixture, 'send_mail', { to: 'a@example.test', body });
      const ana = await approver(TOKENS.ana);
      const reviewed = await review(ana, big, { to: 'b@example.test' });
      expect(reviewed.body.length).toBeLessThan(20_000);
      expect((await ana.post(page(big, 'grant'), { _csrf: ana.csrf, sealed: sealedOf(reviewed.body) })).status).toBe(303);
      await fixture.registry.resume(big, fixture.agent);
      expect(sent).toEqual([{ to: 'b@example.test', body }]);
      const id = await holdCall(fixture, 'call_api', { url: 'https://example.test', 'na\u202Eme': 'z' });
      const edited = await review(ana, id, { título: 'c\r\nd' });
      expect(edited.status).toBe(200);
      expect(edited.body).not.toContain('\u202E');
      expect((await ana.post(page(id, 'grant'), { _csrf: ana.csrf, sealed: sealedOf(edited.body) })).status).toBe(303);
      expect((await fixture.verifier.store.get(id))?.approvals[0]?.changes).toEqual({ título: 'c\nd' });
    });

    it('begins 200 parallel sign-ins, each its own session', async () => {
      await start(tokenAuthentication({ tokens: TOKEN_TABLE }));
      const sessions = await Promise.all(Array.from({ length: 200 }, () => signInWithSession(TOKENS.ana)));
      expect(new Set(sessions.map((entry) => entry.session)).size).toBe(200);
      const last = sessions[199]!;
      const cookie = `${last.csrfCookie}; ${SESSION_COOKIE}=${last.session}`;
      const signedIn = await send(`${fixture.url}/approvals/`, { headers: { Cookie: cookie } });
      expect(signedIn.status).toBe(200);
    });
  });
});
