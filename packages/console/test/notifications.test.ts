import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { VerificationRequest, type EventDispatcher } from '@milpa/core';
import { HumanVerifier } from '@milpa/verification';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApprovalConsole, type ApprovalConsoleOptions, type ApprovalNotification } from '../src/index.js';
import { SECURITY_HEADERS } from '../src/security/security-headers.js';
import { AGENT, TOKENS, TestDispatcher, holdCall, startConsoleFixture, type ConsoleFixture } from './support/console-fixture.js';
import { PageClient } from './support/page-client.js';

const MARKER = 'zq-unique-marker-7741';
const fixtures: ConsoleFixture[] = [];

afterEach(async () => {
  for (const fixture of fixtures.splice(0)) await fixture.close();
});

async function start(overrides: Partial<ApprovalConsoleOptions>): Promise<ConsoleFixture> {
  const fixture = await startConsoleFixture(overrides);
  fixtures.push(fixture);
  return fixture;
}

/** Posts `verb` on approval `id` as the approver holding `token`, as the page's form would. */
async function decide(fixture: ConsoleFixture, token: string, id: string, verb: 'grant' | 'reject', reason = '') {
  const client = new PageClient(fixture.url, token);
  await client.get(`/approvals/approvals/${encodeURIComponent(id)}`);
  return client.post(`/approvals/approvals/${encodeURIComponent(id)}/${verb}`, { _csrf: client.csrf, reason });
}

/** Resolves once every queued notification had its turn (the queue runs one at a time). */
async function settled(received: readonly unknown[], count: number): Promise<void> {
  await vi.waitFor(() => expect(received).toHaveLength(count), { timeout: 10_000, interval: 10 });
  await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The response headers of `/events` (the stream is then closed). */
function eventStreamHeaders(url: string, token: string): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}/approvals/events`, { headers: { Authorization: `Bearer ${token}` } }, (response) => {
      resolve({ status: response.statusCode ?? 0, headers: response.headers });
      response.destroy();
    });
    request.on('error', reject);
    request.end();
  });
}

describe('createApprovalConsole', () => {
  describe('notify', () => {
    it('is called once per event of a dual approval: opened, approval recorded, granted', async () => {
      const received: ApprovalNotification[] = [];
      const fixture = await start({
        notify: (notification) => void received.push(notification),
        publicUrl: 'https://ops.example.com/approvals/',
      });
      const id = await holdCall(fixture, 'delete_note', { id: 'n1' });
      await settled(received, 1);
      expect((await decide(fixture, TOKENS.ana, id, 'grant', 'looks right')).status).toBe(303);
      await settled(received, 2);
      expect((await decide(fixture, TOKENS.luis, id, 'grant')).status).toBe(303);
      await settled(received, 3);

      expect(received.map((notification) => notification.kind)).toEqual(['opened', 'approval_recorded', 'granted']);
      const [opened, recorded, granted] = received;
      expect([opened?.kind, opened?.approvalId, opened?.tool, opened?.requester, opened?.policy]).toEqual([
        'opened',
        id,
        'delete_note',
        AGENT,
        'dual',
      ]);
      expect([opened?.approvals, opened?.required, opened?.decidedBy, opened?.reason]).toEqual([0, 2, null, null]);
      expect(opened?.url).toBe(`https://ops.example.com/approvals/approvals/${id}`);
      expect(opened?.at).toBeInstanceOf(Date);
      expect(recorded).toMatchObject({ approvals: 1, required: 2, decidedBy: 'user:ana', reason: 'looks right' });
      expect(granted).toMatchObject({ approvals: 2, required: 2, decidedBy: 'user:luis', reason: null });
      expect(granted!.at.getTime()).toBeGreaterThanOrEqual(recorded!.at.getTime());
    });

    it('is called with the rejecter and the reason when a call is rejected', async () => {
      const received: ApprovalNotification[] = [];
      const fixture = await start({ notify: (notification) => void received.push(notification) });
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 2 });
      expect((await decide(fixture, TOKENS.luis, id, 'reject', 'wrong printer')).status).toBe(303);
      await settled(received, 2);
      expect(received[1]).toMatchObject({ kind: 'rejected', policy: 'single', decidedBy: 'user:luis', reason: 'wrong printer', url: null });
    });

    it('never carries an argument value, not even a redacted one', async () => {
      const received: ApprovalNotification[] = [];
      const fixture = await start({ notify: (notification) => void received.push(notification), publicUrl: 'https://ops.example.com/' });
      const id = await holdCall(fixture, 'print_note', { id: MARKER, copies: 3, title: `${MARKER} title`, api_key: `${MARKER}-key` });
      await decide(fixture, TOKENS.ana, id, 'grant', 'fine');
      await settled(received, 2);
      const text = JSON.stringify(received);
      expect(text).not.toContain(MARKER);
      expect(text).not.toContain('[REDACTED]');
      expect(Object.keys(received[0]!).sort()).toEqual(
        ['approvalId', 'approvals', 'at', 'decidedBy', 'kind', 'policy', 'reason', 'required', 'requester', 'tool', 'url'].sort(),
      );
    });

    it('encodes the approval id in the link', async () => {
      const received: ApprovalNotification[] = [];
      const fixture = await start({ notify: (notification) => void received.push(notification), publicUrl: 'https://ops.example.com/ops' });
      await fixture.verifier.verify(new VerificationRequest('approval:delete_note', 'single', { tool: 'delete_note' }, AGENT, 'a/b?c#d'));
      await settled(received, 1);
      expect(received[0]?.url).toBe('https://ops.example.com/ops/approvals/a%2Fb%3Fc%23d');
    });

    it('records a grant and runs the call when the notifier throws, and reports the error', async () => {
      const errors: { error: unknown; notification: ApprovalNotification | null }[] = [];
      let calls = 0;
      const fixture = await start({
        notify: () => {
          calls += 1;
          throw new Error('notifier down');
        },
        onNotifyError: (error, notification) => {
          errors.push({ error, notification });
          throw new Error('the error handler fails too');
        },
      });
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 2 });
      const answer = await decide(fixture, TOKENS.ana, id, 'grant');
      expect(answer.status).toBe(303);
      expect(answer.headers.location).toContain('notice=granted');
      expect((await fixture.verifier.store.get(id))?.result?.status).toBe('passed');
      const resumed = await fixture.registry.resume(id, fixture.agent);
      expect(resumed.success).toBe(true);
      expect(fixture.executed).toEqual([{ tool: 'print_note', args: { id: 'n1', copies: 2 } }]);
      await settled(errors, 2);
      expect(calls).toBe(2);
      expect((errors[1]?.error as Error).message).toBe('notifier down');
      expect(errors[1]?.notification?.kind).toBe('granted');
    });

    it('records a grant at once while an earlier notification never settles', async () => {
      const started: string[] = [];
      const fixture = await start({
        notify: (notification) => {
          started.push(notification.kind);
          return new Promise<void>(() => undefined);
        },
      });
      const id = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      await settled(started, 1);
      expect((await decide(fixture, TOKENS.ana, id, 'grant')).status).toBe(303);
      expect((await fixture.verifier.store.get(id))?.result?.status).toBe('passed');
      // Delivered one at a time: the grant's notification waits behind the stuck one.
      expect(started).toEqual(['opened']);
    });

    it('refuses a notify that is not a function and a publicUrl that is not a plain http(s) address', async () => {
      for (const overrides of [
        { notify: 'https://hooks.example.com' as never },
        { publicUrl: 'ftp://ops.example.com/' },
        { publicUrl: '/approvals/' },
        { publicUrl: 'https://user:password@ops.example.com/' },
        { publicUrl: 'https://ops.example.com/?next=1' },
        { publicUrl: 'javascript:alert(1)' },
      ]) {
        await expect(startConsoleFixture(overrides)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      }
    });
  });

  describe('notify on expiry', () => {
    async function expiring(ttlMs: number) {
      const received: ApprovalNotification[] = [];
      const dispatcher = new TestDispatcher() as unknown as EventDispatcher;
      const verifier = new HumanVerifier({ dispatcher, ttlMs });
      const approvals = createApprovalConsole({
        verifier,
        dispatcher,
        authenticate: () => null,
        notify: (notification) => void received.push(notification),
      });
      const open = (id: string) =>
        verifier.verify(new VerificationRequest('approval:delete_note', 'single', { tool: 'delete_note' }, AGENT, id));
      return { received, verifier, approvals, open };
    }

    it('notifies expired once an undecided approval passes its deadline', async () => {
      const { received, approvals, open } = await expiring(100);
      try {
        await open('exp-1');
        await settled(received, 2);
        expect(received.map((notification) => notification.kind)).toEqual(['opened', 'expired']);
        expect(received[1]).toMatchObject({ approvalId: 'exp-1', decidedBy: null, reason: null, approvals: 0 });
        // Its time is the deadline: opened plus the verifier's ttl.
        expect(received[1]!.at.getTime() - received[0]!.at.getTime()).toBe(100);
      } finally {
        approvals.close();
      }
    });

    it('does not notify expired for an approval decided before its deadline', async () => {
      const { received, verifier, approvals, open } = await expiring(1500);
      try {
        await open('exp-2');
        await verifier.grant(VerificationRequest.forResolution('exp-2'), 'user:ana');
        await settled(received, 2);
        // Past the deadline, with room: no expiry timer may fire for a decided approval.
        await new Promise((resolve) => setTimeout(resolve, 1800));
        expect(received.map((notification) => notification.kind)).toEqual(['opened', 'granted']);
      } finally {
        approvals.close();
      }
    });
  });

  describe('/events', () => {
    it('answers the stream with the security headers of the pages', async () => {
      const fixture = await start({});
      const { status, headers } = await eventStreamHeaders(fixture.url, TOKENS.ana);
      expect(status).toBe(200);
      expect(headers['content-type']).toBe('text/event-stream; charset=utf-8');
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(headers[name.toLowerCase()]).toBe(value);
    });
  });
});
