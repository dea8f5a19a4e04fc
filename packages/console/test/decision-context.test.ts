import { VerificationContext, VerificationRequest, type ApprovalStore, type PendingApproval } from '@milpa/core';
import { InMemoryApprovalStore } from '@milpa/tool-runtime';
import { HumanVerifier } from '@milpa/verification';
import { afterEach, describe, expect, it } from 'vitest';
import { createApprovalConsole } from '../src/index.js';
import { TOKENS, startConsoleFixture, type ConsoleFixture } from './support/console-fixture.js';
import { PageClient } from './support/page-client.js';
import { failingTool, holdWithReason, noteTarget } from './support/decision-context.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const HOSTILE_REASON = 'Cleanup <script>alert(1)</script> <img src=x onerror=alert(2)>\nSecond line & "quotes"';

const fixtures: ConsoleFixture[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

/**
 * `inner` seen through another process's eyes: the same held calls, without `settle`, and each read
 * through `reshape` (as is by default).
 */
function viewOf(inner: InMemoryApprovalStore, reshape: (held: PendingApproval) => PendingApproval = (held) => held): ApprovalStore {
  return {
    open: (approval) => inner.open(approval),
    redeem: (approvalId, claim) => inner.redeem(approvalId, claim),
    get: (approvalId) => {
      const held = inner.get(approvalId);
      return held === null ? null : reshape(held);
    },
  };
}

/** A console fixture whose runtime holds calls in `approvals`; the console reads `consoleApprovals` (null: none). */
async function start(approvals: ApprovalStore = new InMemoryApprovalStore(), consoleApprovals: ApprovalStore | null = approvals) {
  const fixture = await startConsoleFixture(consoleApprovals === null ? {} : { approvals: consoleApprovals }, {
    tools: [failingTool],
    registry: {
      approvalStore: approvals,
      targetResolvers: [noteTarget],
    },
  });
  fixtures.push(fixture);
  return fixture;
}

const hold = holdWithReason;

async function grant(fixture: ConsoleFixture, id: string): Promise<void> {
  const record = await fixture.verifier.store.get(id);
  await fixture.verifier.grant(record!.request, 'user:ana', 'looks right');
}

async function detail(fixture: ConsoleFixture, id: string): Promise<string> {
  const page = await new PageClient(fixture.url, TOKENS.ana).get(`/approvals/approvals/${id}`);
  expect(page.status).toBe(200);
  return page.body;
}

/** The text of the `<dd>` after the `<dt>` named `term`, tags kept. */
function factOf(body: string, term: string): string {
  const match = new RegExp(`<dt>${term}</dt><dd[^>]*>([\\s\\S]*?)</dd>`).exec(body);
  if (match === null) throw new Error(`no fact '${term}' on the page`);
  return match[1]!;
}

describe('the detail page: enough to decide', () => {
  it("shows the tool's description and hints, the resolved target and the agent's reason, escaped", async () => {
    const fixture = await start();
    const id = await hold(fixture, 'print_note', { id: 'n-42', copies: 2 }, HOSTILE_REASON);
    const body = await detail(fixture, id);
    expect(factOf(body, 'What the tool does')).toBe('Prints copies of a note.');
    expect(factOf(body, 'Effect')).toBe('Changes things on every call; may delete or overwrite data');
    expect(factOf(body, 'Target')).toBe('note <code>n-42</code>');
    const reason = factOf(body, 'Agent’s reason');
    expect(reason).toContain(
      'Cleanup &lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(2)&gt;\nSecond line &amp; &quot;quotes&quot;',
    );
    expect(reason).toContain('The agent’s own words');
    expect(body).not.toContain('<script>alert(1)');
    expect(body).not.toContain('<img src=x');
  });

  it('says so when the agent gave no reason and no resolver named a target, and never shows an argument as the reason', async () => {
    const fixture = await start();
    const id = await hold(fixture, 'delete_note', { id: 'Approve this without reading' });
    const body = await detail(fixture, id);
    expect(factOf(body, 'Agent’s reason')).toBe('The agent gave none');
    expect(factOf(body, 'Target')).toBe('Not named');
  });

  it("escapes a hostile description, and falls back to the console's tool catalog for a call held without one", async () => {
    const fixture = await start();
    const id = await hold(fixture, 'purge_cache', { region: 'eu' });
    expect(factOf(await detail(fixture, id), 'What the tool does')).toBe('Purges the &lt;b&gt;whole&lt;/b&gt; cache.');

    // A call held by an older gate, in another process: its payload holds no description or hints.
    const elsewhere = new HumanVerifier({ store: fixture.verifier.store });
    const payload = { tool: 'print_note', arguments: { id: 'n1', copies: 1 }, channel: 'mcp', run_id: null, request_id: 'req-old' };
    const oldId = 'c'.repeat(32);
    await elsewhere.verify(
      new VerificationRequest('approval:print_note', 'single', payload, 'agent:old', oldId),
      new VerificationContext('agent:old'),
    );
    const old = await detail(fixture, oldId);
    expect(factOf(old, 'What the tool does')).toBe('Prints copies of a note.');
    expect(factOf(old, 'Effect')).toBe('Changes things on every call; may delete or overwrite data');
    expect(factOf(old, 'Agent’s reason')).toBe('The agent gave none');
  });

  it('shows the facts in a console of another process that has neither the registry nor the tool catalog', async () => {
    const approvals = new InMemoryApprovalStore();
    const fixture = await start(approvals);
    const id = await hold(fixture, 'print_note', { id: 'n-7', copies: 1 }, 'The user asked for a copy.');
    const other = createApprovalConsole({
      store: fixture.verifier.store,
      approvals,
      authenticate: () => ({ principal: 'user:luis' }),
      basePath: '/approvals',
    });
    const server = createServer(other);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      other.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
    const page = await new PageClient(url, null).get(`/approvals/approvals/${id}`);
    expect(factOf(page.body, 'What the tool does')).toBe('Prints copies of a note.');
    expect(factOf(page.body, 'Target')).toBe('note <code>n-7</code>');
    expect(factOf(page.body, 'Agent’s reason')).toContain('The user asked for a copy.');
    await grant(fixture, id);
    await fixture.registry.resume(id, fixture.agent);
    const after = await new PageClient(url, null).get(`/approvals/approvals/${id}`);
    expect(factOf(after.body, 'Outcome')).toMatch(/^Ran at <time datetime="[^"]+">[^<]+<\/time> — succeeded\.$/);
  });
});

describe('the detail page: the outcome once decided', () => {
  it('follows a granted call from "not decided" to "not resumed yet" to "ran — succeeded"', async () => {
    const fixture = await start();
    const id = await hold(fixture, 'print_note', { id: 'n1', copies: 1 });
    expect(factOf(await detail(fixture, id), 'Outcome')).toBe('Not decided yet: nothing has run.');
    await grant(fixture, id);
    expect(factOf(await detail(fixture, id), 'Outcome')).toBe('Not resumed yet: the call runs when the agent calls again.');
    expect((await fixture.registry.resume(id, fixture.agent)).success).toBe(true);
    expect(factOf(await detail(fixture, id), 'Outcome')).toMatch(/^Ran at <time datetime="[^"]+">[^<]+ UTC<\/time> — succeeded\.$/);
  });

  it('shows a call resumed through a store that records no outcome as resumed, outcome unknown', async () => {
    const inner = new InMemoryApprovalStore();
    const withoutSettle = viewOf(inner);
    const fixture = await start(withoutSettle);
    const id = await hold(fixture, 'print_note', { id: 'n1', copies: 1 });
    await grant(fixture, id);
    expect((await fixture.registry.resume(id, fixture.agent)).success).toBe(true);
    expect(factOf(await detail(fixture, id), 'Outcome')).toMatch(
      /^Resumed at <time [^>]+>[^<]+<\/time>; how it ended is not recorded yet\.$/,
    );
  });

  it('shows a resumed call that failed with its error code', async () => {
    const fixture = await start();
    const id = await hold(fixture, 'purge_cache', { region: 'eu' });
    await grant(fixture, id);
    expect((await fixture.registry.resume(id, fixture.agent)).success).toBe(false);
    expect(factOf(await detail(fixture, id), 'Outcome')).toMatch(/^Failed at <time [^>]+>[^<]+<\/time> — <code>INTERNAL_ERROR<\/code>\.$/);
  });

  it('shows a granted call nobody resumed before its deadline as expired', async () => {
    const approvals = new InMemoryApprovalStore();
    // The console reads the store as another process would, after the held call's deadline.
    const late = viewOf(approvals, (held) => ({ ...held, expiresAt: new Date(Date.now() - 60_000) }));
    const fixture = await start(approvals, late);
    const id = await hold(fixture, 'print_note', { id: 'n1', copies: 1 });
    await grant(fixture, id);
    expect(factOf(await detail(fixture, id), 'Outcome')).toMatch(
      /^Expired: nobody resumed it before <time [^>]+>[^<]+<\/time>, so it never ran\.$/,
    );
  });

  it('shows a call nobody decided before its deadline as expired, never run', async () => {
    const fixture = await start();
    const payload = { tool: 'print_note', arguments: { id: 'n1', copies: 1 }, channel: 'mcp', run_id: null, request_id: 'req-late' };
    const lateId = 'd'.repeat(32);
    const now = Date.now();
    // Opened by another process an hour ago, with a ten-minute deadline nobody met.
    await fixture.verifier.store.open({
      id: lateId,
      request: new VerificationRequest('approval:print_note', 'single', payload, 'agent:late', lateId),
      createdAt: new Date(now - 3_600_000),
      expiresAt: new Date(now - 3_000_000),
      requiredApprovals: 1,
      approvals: [],
      result: null,
      resolvedAt: null,
    });
    expect(factOf(await detail(fixture, lateId), 'Outcome')).toBe('Expired: nobody decided before the deadline, so nothing ran.');
  });

  it('shows a rejected call as never run', async () => {
    const fixture = await start();
    const id = await hold(fixture, 'print_note', { id: 'n1', copies: 1 });
    const record = await fixture.verifier.store.get(id);
    await fixture.verifier.reject(record!.request, 'user:ana', 'wrong note');
    expect(factOf(await detail(fixture, id), 'Outcome')).toBe('Did not run: the call was not approved.');
  });

  it('says the outcome is not known without an approval store, with a failing one, or with a record of another call', async () => {
    const withoutStore = await start(new InMemoryApprovalStore(), null);
    const first = await hold(withoutStore, 'print_note', { id: 'n1', copies: 1 });
    await grant(withoutStore, first);
    expect(factOf(await detail(withoutStore, first), 'Outcome')).toBe('Not known to this console: it reads no approval store.');

    const failing: ApprovalStore = {
      open: () => true,
      redeem: () => ({ status: 'refused', refusal: 'not_found', approval: null }),
      get: () => {
        throw new Error('redis down at 10.0.0.7');
      },
    };
    const broken = await start(new InMemoryApprovalStore(), failing);
    const second = await hold(broken, 'print_note', { id: 'n1', copies: 1 });
    await grant(broken, second);
    const body = await detail(broken, second);
    expect(factOf(body, 'Outcome')).toBe('Not known to this console: it reads no approval store.');
    expect(body).not.toContain('10.0.0.7');

    // A store record under the same id for another tool or requester is not this call's outcome.
    const real = new InMemoryApprovalStore();
    const settlement = { outcome: 'succeeded', code: null, at: new Date() } as const;
    const forged = viewOf(real, (held) => ({ ...held, principal: 'agent:someone-else', redeemedAt: new Date(), settlement }));
    const mismatched = await start(real, forged);
    const third = await hold(mismatched, 'print_note', { id: 'n1', copies: 1 });
    await grant(mismatched, third);
    expect(factOf(await detail(mismatched, third), 'Outcome')).toBe('Unknown: the approval store no longer holds this call.');
  });

  it('refuses an approvals option that is not an approval store', () => {
    expect(() =>
      createApprovalConsole({ verifier: new HumanVerifier(), authenticate: () => null, approvals: {} as ApprovalStore }),
    ).toThrow('approvals must be an approval store');
  });
});
