import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InMemoryVerificationStore } from '@milpa/verification';
import { TOKENS, holdCall, startConsoleFixture, type ConsoleFixture } from './support/console-fixture.js';
import { formFields } from './support/form-fields.js';
import { RecordingClient } from './support/recording-client.js';

let fixture: ConsoleFixture;
const received: string[] = [];

beforeEach(async () => {
  fixture = await startConsoleFixture();
  received.length = 0;
});

afterEach(async () => {
  vi.useRealTimers();
  await fixture.close();
});

const page = (id: string, step = ''): string => `/approvals/approvals/${id}${step === '' ? '' : `/${step}`}`;

function approver(token: string): Promise<RecordingClient> {
  return RecordingClient.signIn(fixture.url, token, received);
}

async function approvalsOf(id: string): Promise<{ principal: string; changes?: unknown }[]> {
  const record = await fixture.verifier.store.get(id);
  return (record?.approvals ?? []).map((approval) => ({ principal: approval.principal, changes: approval.changes }));
}

function alertOf(body: string): string {
  return (/role="alert">([\s\S]*?)<\/div>/.exec(body)?.[1] ?? '').replace(/&#39;/g, "'");
}

/** Opens the edit page, sets `values` on the form, reviews it; answers the review page. */
async function review(client: RecordingClient, id: string, values: Record<string, string>) {
  const edit = await client.get(page(id, 'edit'));
  const form = formFields(edit.body, `${id}/review`).map(([name, value]): [string, string] => [
    name,
    values[name.replace(/^edit\./, '')] ?? value,
  ]);
  return client.post(page(id, 'review'), form);
}

/** Reviews `values` and answers the sealed token of the confirm form. */
async function sealedFor(client: RecordingClient, id: string, values: Record<string, string>): Promise<string> {
  const answer = await review(client, id, values);
  expect(answer.status).toBe(200);
  return /name="sealed" value="([^"]+)"/.exec(answer.body)![1]!;
}

describe('shared approvals and edits', () => {
  it("completes a dual approval when the second approver's plain grant approves the first approver's edit", async () => {
    const id = await holdCall(fixture, 'delete_note', { id: 'n1' });
    const ana = await approver(TOKENS.ana);
    const sealed = await sealedFor(ana, id, { id: 'n2' });
    expect((await ana.post(page(id, 'grant'), { _csrf: ana.csrf, sealed })).headers.location).toBe(`${page(id)}?notice=recorded`);
    const luis = await approver(TOKENS.luis);
    const detail = await luis.get(page(id));
    expect(detail.body).toContain('<td data-label="Approved change">n2</td>');
    expect((await luis.post(page(id, 'grant'), formFields(detail.body, `${id}/grant`))).headers.location).toBe(
      `${page(id)}?notice=granted`,
    );
    expect(await approvalsOf(id)).toEqual([
      { principal: 'user:ana', changes: { id: 'n2' } },
      { principal: 'user:luis', changes: { id: 'n2' } },
    ]);
    await fixture.registry.resume(id, fixture.agent);
    expect(fixture.executed).toEqual([{ tool: 'delete_note', args: { id: 'n2' } }]);
  });

  it('refuses a plain grant from a page shown before someone edited the proposal, and shows the new proposal', async () => {
    const id = await holdCall(fixture, 'delete_note', { id: 'n1' });
    const luis = await approver(TOKENS.luis);
    const stale = formFields((await luis.get(page(id))).body, `${id}/grant`);
    const ana = await approver(TOKENS.ana);
    await ana.post(page(id, 'grant'), { _csrf: ana.csrf, sealed: await sealedFor(ana, id, { id: 'n9' }) });
    const refused = await luis.post(page(id, 'grant'), stale);
    expect(refused.status).toBe(409);
    expect(alertOf(refused.body)).toContain('Someone changed the proposed arguments since you opened this page; nothing was recorded.');
    expect(refused.body).toContain('<td data-label="Approved change">n9</td>');
    // A form without any fingerprint claims the held arguments, so it is refused too.
    expect((await luis.post(page(id, 'grant'), { _csrf: luis.csrf })).status).toBe(409);
    expect(await approvalsOf(id)).toEqual([{ principal: 'user:ana', changes: { id: 'n9' } }]);
  });

  it('says before and after confirming that an edit sets an earlier approval aside', async () => {
    const id = await holdCall(fixture, 'delete_note', { id: 'n1' });
    const ana = await approver(TOKENS.ana);
    await ana.post(page(id, 'grant'), formFields((await ana.get(page(id))).body, `${id}/grant`));
    const luis = await approver(TOKENS.luis);
    const answer = await review(luis, id, { id: 'n3' });
    const warning = "user:ana's approval no longer counts: they approved other arguments. The approvals start over (2 needed";
    expect(answer.body.replace(/&#39;/g, "'")).toContain(warning);
    const sealed = /name="sealed" value="([^"]+)"/.exec(answer.body)![1]!;
    const granted = await luis.post(page(id, 'grant'), { _csrf: luis.csrf, sealed });
    const location = String(granted.headers.location);
    expect(location).toMatch(/\?notice=recorded&resets=v1\./);
    const after = await luis.get(location);
    expect(after.body.replace(/&#39;/g, "'")).toContain(warning);
    expect(await approvalsOf(id)).toEqual([{ principal: 'user:luis', changes: { id: 'n3' } }]);
    // The notice's sealed token is no sealed edit.
    const noticeToken = new URL(location, fixture.url).searchParams.get('resets')!;
    expect((await luis.post(page(id, 'grant'), { _csrf: luis.csrf, sealed: noticeToken })).status).toBe(400);
    expect(await approvalsOf(id)).toHaveLength(1);
    // The notice is sealed for luis: ana opening the same address sees no claim about approvals.
    expect((await ana.get(location)).body).not.toContain('no longer counts');
    expect((await ana.get(`${page(id)}?notice=recorded&resets=forged`)).body).not.toContain('no longer counts');
  });
});

describe('sealed edits under attack', () => {
  it('refuses a tampered, truncated or foreign-console token and records nothing', async () => {
    const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 2 });
    const ana = await approver(TOKENS.ana);
    const sealed = await sealedFor(ana, id, { copies: '3' });
    const body = sealed.slice(3);
    const flipped = `v1.${body.slice(0, 20)}${body[20] === 'A' ? 'B' : 'A'}${body.slice(21)}`;
    const other = await startConsoleFixture({ secret: 'another-console-secret-0123456789' });
    let foreign: string;
    try {
      const otherId = await holdCall(other, 'print_note', { id: 'n1', copies: 2 });
      const anaThere = await RecordingClient.signIn(other.url, TOKENS.ana);
      foreign = await sealedFor(anaThere, otherId, { copies: '3' });
    } finally {
      await other.close();
    }
    for (const token of [flipped, sealed.slice(0, -4), 'v1.', 'v2.AAAA', foreign, `${sealed}x`]) {
      const answer = await ana.post(page(id, 'grant'), { _csrf: ana.csrf, sealed: token });
      expect(answer.status, token.slice(0, 12)).toBe(400);
      expect(alertOf(answer.body)).toMatch(/nothing was recorded/);
    }
    expect(await approvalsOf(id)).toEqual([]);
    expect((await ana.post(page(id, 'grant'), { _csrf: ana.csrf, sealed })).status).toBe(303);
  });

  it("refuses another approver's token, another item's token and a token that only an expired review made", async () => {
    const first = await holdCall(fixture, 'print_note', { id: 'n1', copies: 2 });
    const second = await holdCall(fixture, 'print_note', { id: 'n1', copies: 2 });
    const ana = await approver(TOKENS.ana);
    const luis = await approver(TOKENS.luis);
    const anas = await sealedFor(ana, first, { copies: '7' });
    const byLuis = await luis.post(page(first, 'grant'), { _csrf: luis.csrf, sealed: anas });
    expect([byLuis.status, alertOf(byLuis.body)]).toEqual([403, expect.stringContaining('reviewed by another approver')]);
    const otherItem = await ana.post(page(second, 'grant'), { _csrf: ana.csrf, sealed: anas });
    expect([otherItem.status, alertOf(otherItem.body)]).toEqual([403, expect.stringContaining('another approval request')]);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 16 * 60_000);
    const late = await ana.post(page(first, 'grant'), { _csrf: ana.csrf, sealed: anas });
    expect([late.status, alertOf(late.body)]).toEqual([409, expect.stringContaining('expired')]);
    expect(await approvalsOf(first)).toEqual([]);
    expect(await approvalsOf(second)).toEqual([]);
  });

  it('refuses a sealed edit made against a proposal that changed since the review', async () => {
    const id = await holdCall(fixture, 'delete_note', { id: 'n1' });
    const ana = await approver(TOKENS.ana);
    const luis = await approver(TOKENS.luis);
    const anas = await sealedFor(ana, id, { id: 'n4' });
    await luis.post(page(id, 'grant'), { _csrf: luis.csrf, sealed: await sealedFor(luis, id, { id: 'n5' }) });
    const stale = await ana.post(page(id, 'grant'), { _csrf: ana.csrf, sealed: anas });
    expect(stale.status).toBe(409);
    expect(await approvalsOf(id)).toEqual([{ principal: 'user:luis', changes: { id: 'n5' } }]);
  });

  it('never lets a plain grant from a page without changes approve an edit recorded while it was being checked', async () => {
    const id = await holdCall(fixture, 'delete_note', { id: 'r1' });
    const ana = await approver(TOKENS.ana);
    const luis = await approver(TOKENS.luis);
    const plain = formFields((await luis.get(page(id))).body, `${id}/grant`);
    const sealed = await sealedFor(ana, id, { id: 'edited' });
    // Stall luis's read of the item inside the decision (as a slow store would; the first read is
    // the route's visibility check) until ana's edit is recorded, or at most half a second when the
    // console makes ana's grant wait for his (as it should).
    const store = fixture.verifier.store as InMemoryVerificationStore;
    const read = store.get.bind(store);
    const decide = store.decide.bind(store);
    let anaDecided!: () => void;
    const decided = new Promise<void>((resolve) => void (anaDecided = resolve));
    let luisReading!: () => void;
    const reading = new Promise<void>((resolve) => void (luisReading = resolve));
    let reads = 0;
    store.get = ((requested: string) => {
      const record = read(requested);
      if (requested !== id || ++reads !== 2) return record;
      luisReading();
      return Promise.race([decided, new Promise((resolve) => setTimeout(resolve, 500))]).then(() => record);
    }) as typeof store.get;
    store.decide = ((requested, decision) => {
      const outcome = decide(requested, decision);
      if (decision.kind === 'grant' && decision.principal === 'user:ana') anaDecided();
      return outcome;
    }) as typeof store.decide;
    const stale = luis.post(page(id, 'grant'), plain);
    await reading;
    const amend = await ana.post(page(id, 'grant'), { _csrf: ana.csrf, sealed });
    expect(amend.status).toBe(303);
    expect((await stale).status).toBe(303);
    // Luis approved the call as held; ana's edit came after it and started the approvals over.
    expect(await approvalsOf(id)).toEqual([{ principal: 'user:ana', changes: { id: 'edited' } }]);
  });

  it('refuses argument values posted straight to the grant, and edits of fields the page does not offer', async () => {
    const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 2 });
    const ana = await approver(TOKENS.ana);
    const inline = await ana.post(page(id, 'grant'), { _csrf: ana.csrf, 'edit.copies': '9' });
    expect(inline.status).toBe(422);
    const edit = await ana.get(page(id, 'edit'));
    const proposal = /name="proposal" value="([^"]+)"/.exec(edit.body)![1]!;
    const unknown = await ana.post(page(id, 'review'), { _csrf: ana.csrf, proposal, 'edit.owner': 'mallory' });
    expect(alertOf(unknown.body)).toContain("The field 'owner' cannot be edited here; nothing was recorded.");
    const forged = await ana.post(page(id, 'review'), { _csrf: ana.csrf, proposal: 'forged', 'edit.copies': '9' });
    expect(forged.status).toBe(409);
    expect(await approvalsOf(id)).toEqual([]);
  });
});

describe('secrets set by an approver', () => {
  const SECRET = 'zq-unique-secret-7f3a9c';

  function openStream(): Promise<{ text: () => string; close: () => void }> {
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        `${fixture.url}/approvals/events`,
        { headers: { Authorization: `Bearer ${TOKENS.luis}` } },
        (stream: IncomingMessage) => {
          let text = '';
          stream.setEncoding('utf8');
          stream.on('data', (chunk: string) => void (text += chunk));
          resolve({ text: () => text, close: () => stream.destroy() });
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
  }

  it('never shows a secret once typed: not in the review, the confirm form, any page, an error or an event', async () => {
    const stream = await openStream();
    const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 2 });
    const ana = await approver(TOKENS.ana);
    const refused = await review(ana, id, { api_key: SECRET, copies: '50' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatch(/name="edit\.api_key"[^>]*type="password"[^>]*value=""/);
    const answer = await review(ana, id, { api_key: SECRET });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<th scope="row">api_key</th><td data-label="As held"><em>not set</em></td>');
    expect(answer.body).toContain('<td data-label="Proposed"><em>set (hidden)</em></td>');
    const sealed = /name="sealed" value="([^"]+)"/.exec(answer.body)![1]!;
    expect(Buffer.from(sealed.slice(3), 'base64url').toString('latin1')).not.toContain(SECRET);
    const granted = await ana.post(page(id, 'grant'), { _csrf: ana.csrf, sealed });
    expect(granted.status).toBe(303);
    const luis = await approver(TOKENS.luis);
    for (const client of [ana, luis]) {
      const detail = await client.get(page(id));
      expect(detail.body).toContain('<td data-label="Approved change">set (hidden)</td>');
      await client.get('/approvals/history');
      await client.get('/approvals/');
    }
    await fixture.registry.resume(id, fixture.agent);
    expect(fixture.executed).toEqual([{ tool: 'print_note', args: { id: 'n1', copies: 2, api_key: SECRET } }]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    stream.close();
    expect(stream.text()).toContain('event: change');
    for (const text of [...received, stream.text()]) expect(text).not.toContain(SECRET);
  });
});
