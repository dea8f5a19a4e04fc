import { createHash } from 'node:crypto';
import { VerificationContext, VerificationRequest } from '@milpa/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../src/index.js';
import { AGENT, TOKENS, holdCall, send, startConsoleFixture, type ConsoleFixture } from './support/console-fixture.js';
import { formFields } from './support/form-fields.js';
import { PageClient } from './support/page-client.js';

let fixture: ConsoleFixture;

beforeEach(async () => {
  fixture = await startConsoleFixture();
});

afterEach(async () => {
  await fixture.close();
});

const MEGABYTE = 1_000_000;

async function signedIn(token: string, path = '/approvals/'): Promise<PageClient> {
  const client = new PageClient(fixture.url, token);
  await client.get(path);
  return client;
}

/** The page without its forms (whose edit controls carry the exact held values). */
function withoutForms(html: string): string {
  return html.replace(/<form[\s\S]*?<\/form>/g, '');
}

/** Opens an approval request the way the gate does, with any tool name, requester and arguments. */
async function openRequest(tool: string, requester: string, args: Record<string, unknown>, runId = 'run-1'): Promise<string> {
  const id = `req-${Math.random().toString(36).slice(2)}`;
  const payload = { tool, arguments: args, channel: 'mcp', run_id: runId, request_id: 'call-1' };
  await fixture.verifier.verify(
    new VerificationRequest(`approval:${tool}`, 'single', payload, requester, id),
    new VerificationContext(requester),
  );
  fixture.console.track(id);
  return id;
}

describe('value display', () => {
  describe('a 1 MB argument', () => {
    it('makes a detail page of a few kilobytes showing its length, digest and a link to the whole value', async () => {
      const value = 'a'.repeat(MEGABYTE);
      const id = await holdCall(fixture, 'print_note', { id: value, copies: 1 });
      const ana = await signedIn(TOKENS.ana);
      const page = await ana.get(`/approvals/approvals/${id}`);
      expect(page.status).toBe(200);
      expect(Buffer.byteLength(page.body)).toBeLessThan(40_000);
      const digest = createHash('sha256').update(value).digest('hex');
      expect(page.body).toContain('1,000,000 characters, 1,000,000 bytes');
      expect(page.body).toContain(`data-sha256="${digest}"`);
      expect(page.body).toContain(`href="/approvals/approvals/${id}/arguments/id"`);
      // The grant form carries no argument, and the edit step does not offer a field too long to edit.
      expect(page.body).not.toContain('name="edit.');
      const edit = await ana.get(`/approvals/approvals/${id}/edit`);
      expect(edit.body).not.toContain('name="edit.id"');
      expect(edit.body).toContain('name="edit.copies"');
    });

    it('serves the whole value as plain text, exactly, with the security headers', async () => {
      const value = `${'a'.repeat(MEGABYTE - 3)}\u202Eé`;
      const id = await holdCall(fixture, 'print_note', { id: value, copies: 1 });
      const ana = await signedIn(TOKENS.ana);
      const whole = await ana.get(`/approvals/approvals/${id}/arguments/id`);
      expect(whole.status).toBe(200);
      expect(whole.body).toBe(value);
      expect(whole.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(whole.headers['x-content-type-options']).toBe('nosniff');
      expect(whole.headers['content-disposition']).toBe('inline');
      expect(whole.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(whole.headers['x-frame-options']).toBe('DENY');
      expect(whole.headers['cache-control']).toBe('no-store');
      const page = await ana.get(`/approvals/approvals/${id}`);
      expect(page.body).toContain(`data-sha256="${createHash('sha256').update(whole.body).digest('hex')}"`);
    });

    it('is granted with the form as rendered, and the call runs with the held value', async () => {
      const value = 'b'.repeat(MEGABYTE);
      const id = await holdCall(fixture, 'print_note', { id: value, copies: 2 });
      const ana = await signedIn(TOKENS.ana);
      const page = await ana.get(`/approvals/approvals/${id}`);
      const granted = await ana.post(`/approvals/approvals/${id}/grant`, Object.fromEntries(formFields(page.body, '/grant')));
      expect(granted.status).toBe(303);
      expect((await fixture.verifier.store.get(id))?.result?.status).toBe('passed');
      const done = await fixture.registry.resume(id, fixture.agent);
      expect(done.success).toBe(true);
      const ran = fixture.executed.find((call) => call.args['copies'] === 2);
      expect(ran?.args['id']).toBe(value);
    });

    it('is rejected with a reason', async () => {
      const id = await holdCall(fixture, 'print_note', { id: 'c'.repeat(MEGABYTE), copies: 1 });
      const ana = await signedIn(TOKENS.ana);
      await ana.get(`/approvals/approvals/${id}`);
      const rejected = await ana.post(`/approvals/approvals/${id}/reject`, { _csrf: ana.csrf, reason: 'Too big to check.' });
      expect(rejected.status).toBe(303);
      expect((await fixture.verifier.store.get(id))?.result?.status).toBe('failed');
      expect((await fixture.registry.resume(id, fixture.agent)).success).toBe(false);
      expect(fixture.executed).toEqual([]);
    });

    it('refuses a forged edit of the field too long to edit, recording nothing', async () => {
      const id = await holdCall(fixture, 'print_note', { id: 'd'.repeat(MEGABYTE), copies: 1 });
      const ana = await signedIn(TOKENS.ana);
      const edit = await ana.get(`/approvals/approvals/${id}/edit`);
      const proposal = /name="proposal" value="([^"]*)"/.exec(edit.body)?.[1] ?? '';
      const forged = await ana.post(`/approvals/approvals/${id}/review`, { _csrf: ana.csrf, proposal, 'edit.id': 'short' });
      expect(forged.status).toBe(422);
      expect(forged.body).toContain('cannot be edited here');
      expect((await fixture.verifier.store.get(id))?.approvals).toHaveLength(0);
    });
  });

  describe('the whole-value route', () => {
    it('sends a visitor without a session to sign in; 404 for an unknown item or field, never a prototype member', async () => {
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      const anonymous = await send(`${fixture.url}/approvals/approvals/${id}/arguments/id`);
      expect(anonymous.status).toBe(303);
      expect(anonymous.headers.location).toBe('/approvals/login');
      expect(anonymous.body).not.toContain('n1');
      const forged = await send(`${fixture.url}/approvals/approvals/${id}/arguments/id`, {
        headers: { Authorization: 'Bearer not-a-token-0000' },
      });
      expect(forged.status).toBe(303);
      const ana = await signedIn(TOKENS.ana);
      expect((await ana.get(`/approvals/approvals/${id}/arguments/id`)).body).toBe('n1');
      for (const path of [
        `/approvals/approvals/${id}/arguments/nothing`,
        `/approvals/approvals/${id}/arguments/constructor`,
        `/approvals/approvals/${id}/arguments/__proto__`,
        `/approvals/approvals/${id}/arguments/%E0%A4%A`,
        '/approvals/approvals/unknown/arguments/id',
      ]) {
        const answer = await ana.get(path);
        expect(answer.status, path).toBe(404);
        expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      }
    });

    it('answers 404, as for an unknown id, to an approver authorize refuses the item', async () => {
      await fixture.close();
      fixture = await startConsoleFixture({ authorize: (approver) => approver.principal === 'user:ana' });
      const id = await holdCall(fixture, 'print_note', { id: 'secret plan', copies: 1 });
      const luis = await signedIn(TOKENS.luis);
      const refused = await luis.get(`/approvals/approvals/${id}/arguments/id`);
      expect(refused.status).toBe(404);
      expect(refused.body).not.toContain('secret plan');
      expect(refused.body).toBe((await luis.get('/approvals/approvals/unknown/arguments/id')).body);
      expect((await (await signedIn(TOKENS.ana)).get(`/approvals/approvals/${id}/arguments/id`)).body).toBe('secret plan');
    });

    it('serves the redacted copy of a secret, never the held secret, and other values as canonical JSON', async () => {
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 3, api_key: 'sk-live-123456' });
      const ana = await signedIn(TOKENS.ana);
      const secret = await ana.get(`/approvals/approvals/${id}/arguments/api_key`);
      expect(secret.body).not.toContain('sk-live');
      expect(secret.body).toContain('REDACTED');
      expect((await ana.get(`/approvals/approvals/${id}/arguments/copies`)).body).toBe('3');
    });
  });

  describe('a form over the size limit', () => {
    it('gets a page that says nothing was recorded, with a link back to the approval request', async () => {
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      const ana = await signedIn(TOKENS.ana);
      const large = await ana.post(`/approvals/approvals/${id}/grant`, { _csrf: ana.csrf, 'edit.title': 'x'.repeat(MEGABYTE) });
      expect(large.status).toBe(413);
      expect(large.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(large.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(large.body).toContain('so nothing was recorded.');
      expect(large.body).toContain(`<a href="/approvals/approvals/${id}">Back to the approval request</a>`);
      expect((await fixture.verifier.store.get(id))?.approvals).toHaveLength(0);
      // The connection was not reset: the same approver can go on.
      expect((await ana.get(`/approvals/approvals/${id}`)).status).toBe(200);
    });

    it('answers the sign-in form again, saying it was too large', async () => {
      const client = new PageClient(fixture.url, null);
      await client.get('/approvals/login');
      const large = await client.post('/approvals/login', { _csrf: client.csrf, token: 'x'.repeat(70_000) });
      expect(large.status).toBe(413);
      expect(large.body).toContain('The form is too large. Nothing was sent: sign in with your token.');
      expect(large.body).toContain('Approver token');
    });
  });

  describe('hidden characters', () => {
    it('shows bidirectional overrides in argument values as escapes, with a warning on the field', async () => {
      const id = await holdCall(fixture, 'print_note', { id: 'invoice\u202Efdp.exe', copies: 1, title: 'pay \u202E0001$' });
      const ana = await signedIn(TOKENS.ana);
      const page = await ana.get(`/approvals/approvals/${id}`);
      // The edit controls hold the exact value to post back; everything the page shows escapes it.
      expect(withoutForms(page.body)).not.toContain('\u202E');
      expect(page.body).toMatch(/invoice<span class="escape"[^>]*>\\u\{202E\}<\/span>fdp\.exe/);
      expect(page.body).toMatch(/pay <span class="escape"[^>]*>\\u\{202E\}<\/span>0001\$/);
      expect(page.body).toContain('This value holds invisible or direction-changing characters, shown as \\u{…} escapes.');
    });

    it('escapes look-alike characters in the tool name, requester and run, with a warning, on every page', async () => {
      const id = await openRequest('pr\u0456nt_note', 'agent:\u0430ssistant', { id: 'n1' }, 'run\u200B-1');
      const ana = await signedIn(TOKENS.ana);
      const detail = await ana.get(`/approvals/approvals/${id}`);
      expect(detail.body).toMatch(/<h1>Approve <code>pr<span class="escape"[^>]*>\\u\{0456\}<\/span>nt_note<\/code>\?<\/h1>/);
      expect(detail.body).toContain('This name holds characters outside plain ASCII');
      expect(detail.body).toContain('<title>Approve pr\\u{0456}nt_note? ·');
      expect(detail.body).toMatch(/agent:<span class="escape"[^>]*>\\u\{0430\}<\/span>ssistant/);
      expect(detail.body).toMatch(/run<span class="escape"[^>]*>\\u\{200B\}<\/span>-1/);
      for (const answer of [detail, await ana.get('/approvals/')]) {
        expect(withoutForms(answer.body)).not.toMatch(/[\u0456\u0430\u200B]/);
      }
      const list = await ana.get('/approvals/');
      expect(list.body).toContain('(unusual characters: may imitate another name)');
      await ana.get(`/approvals/approvals/${id}`);
      await ana.post(`/approvals/approvals/${id}/reject`, { _csrf: ana.csrf, reason: 'looks \u202Eodd' });
      const history = await ana.get('/approvals/history');
      expect(history.body).toMatch(/pr<span class="escape"[^>]*>\\u\{0456\}<\/span>nt_note/);
      expect(history.body).toMatch(/looks <span class="escape"[^>]*>\\u\{202E\}<\/span>odd/);
      expect(history.body).not.toContain('\u0456');
    });
  });

  describe('the pending list', () => {
    it("summarises each call's arguments, so otherwise identical rows differ; secrets as stored, escapes visible", async () => {
      await holdCall(fixture, 'print_note', { id: 'n1', copies: 2, title: 'race one' });
      await holdCall(fixture, 'print_note', { id: 'n1', copies: 2, title: 'race two', api_key: 'sk-live-999' });
      await holdCall(fixture, 'print_note', { id: 'x\u202Ey', copies: 1 });
      await holdCall(fixture, 'print_note', { id: 'e'.repeat(MEGABYTE), copies: 1 });
      const ana = await signedIn(TOKENS.ana);
      const list = await ana.get('/approvals/');
      expect(list.body).toContain('id: &quot;n1&quot; · copies: 2 · title: &quot;race one&quot;');
      expect(list.body).toContain('id: &quot;n1&quot; · copies: 2 · title: &quot;race two&quot; · api_key: &quot;***REDACTED***&quot;');
      expect(list.body).not.toContain('sk-live');
      expect(list.body).toMatch(/id: &quot;x<span class="escape"[^>]*>\\u\{202E\}<\/span>y&quot;/);
      expect(Buffer.byteLength(list.body)).toBeLessThan(40_000);
      expect(list.body).toContain(`${AGENT}`);
    });
  });
});
