import { afterEach, describe, expect, it } from 'vitest';
import { tokenAuthentication, type ApprovalConsoleOptions } from '../src/index.js';
import { AGENT, TOKENS, holdCall, startConsoleFixture, type Answer, type ConsoleFixture } from './support/console-fixture.js';
import { PageClient } from './support/page-client.js';

let fixture: ConsoleFixture;

afterEach(async () => {
  await fixture.close();
});

const TABLE = {
  tokens: { [TOKENS.ana]: 'user:ana', [TOKENS.luis]: 'user:luis', [TOKENS.agent]: AGENT },
  // Ana decides printing; Luis decides any tool, but only under the dual policy (here: delete_note).
  approvers: { 'user:ana': { tools: ['print_note'] }, 'user:luis': { tools: ['*'], policies: ['dual'] } },
};

async function start(overrides: Partial<ApprovalConsoleOptions> = tokenAuthentication(TABLE)): Promise<void> {
  fixture = await startConsoleFixture(overrides);
}

async function signedIn(token: string): Promise<PageClient> {
  const client = new PageClient(fixture.url, token);
  await client.get('/approvals/');
  return client;
}

async function recordOf(id: string) {
  const record = await fixture.verifier.store.get(id);
  if (record === null) throw new Error(`no record ${id}`);
  return record;
}

/** What an approver learns from an answer: its status and body, with the CSRF token (per approver) masked. */
function seen(answer: Answer, id: string): { status: number; body: string } {
  const body = answer.body.replaceAll(id, '<id>').replace(/value="[^"]+" name="_csrf"|name="_csrf" value="[^"]+"/g, '');
  return { status: answer.status, body };
}

/** Every per-item route, read and posted, as `client` sees it for approval `id`. */
async function perItemAnswers(client: PageClient, id: string): Promise<{ status: number; body: string }[]> {
  const item = `/approvals/approvals/${encodeURIComponent(id)}`;
  return [
    seen(await client.get(item), id),
    seen(await client.get(`${item}/grant`), id),
    seen(await client.get(`${item}/arguments/title`), id),
    seen(await client.post(`${item}/grant`, { _csrf: client.csrf }), id),
    seen(await client.post(`${item}/reject`, { _csrf: client.csrf, reason: 'not mine' }), id),
    seen(await client.post(`${item}/edit`, { _csrf: client.csrf, 'edit.copies': '9' }), id),
  ];
}

describe('createApprovalConsole authorize', () => {
  describe('with the token approvers table', () => {
    it('shows each approver only the items their entry allows in the pending list', async () => {
      await start();
      const print = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1, title: 'quarterly-report' });
      const remove = await holdCall(fixture, 'delete_note', { id: 'n2' });
      const ana = (await signedIn(TOKENS.ana)).get('/approvals/');
      const luis = (await signedIn(TOKENS.luis)).get('/approvals/');
      const agent = (await signedIn(TOKENS.agent)).get('/approvals/');
      const [anaList, luisList, agentList] = await Promise.all([ana, luis, agent]);
      expect(anaList.body).toContain(print);
      expect(anaList.body).not.toContain(remove);
      expect(luisList.body).toContain(remove);
      expect(luisList.body).not.toContain(print);
      expect(luisList.body).not.toContain('quarterly-report');
      // A principal without an entry sees nothing at all.
      expect(agentList.body).not.toContain(print);
      expect(agentList.body).not.toContain(remove);
      expect(agentList.body).toContain('Nothing is waiting for approval.');
    });

    it("answers another approver's item exactly as an unknown id on every per-item route, and records nothing", async () => {
      await start();
      const print = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1, title: 'quarterly-report' });
      const luis = await signedIn(TOKENS.luis);
      const refused = await perItemAnswers(luis, print);
      const unknown = await perItemAnswers(luis, 'vr_00000000000000000000000000000000');
      for (const answer of refused) {
        expect(answer.status).toBe(404);
        expect(answer.body).toContain('No approval request has this id.');
        expect(answer.body).not.toContain('quarterly-report');
        expect(answer.body).not.toContain('print_note');
      }
      expect(refused).toEqual(unknown);
      const record = await recordOf(print);
      expect(record.approvals).toHaveLength(0);
      expect(record.result).toBeNull();
      expect((await fixture.registry.resume(print, fixture.agent)).getCode()).toBe('APPROVAL_PENDING');
      expect(fixture.executed).toHaveLength(0);
    });

    it('lets the allowed approver decide, and keeps the decided item out of the others’ history', async () => {
      await start();
      const print = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1 });
      const remove = await holdCall(fixture, 'delete_note', { id: 'n2' });
      const ana = await signedIn(TOKENS.ana);
      await ana.get(`/approvals/approvals/${print}`);
      const granted = await ana.post(`/approvals/approvals/${print}/grant`, { _csrf: ana.csrf });
      expect(granted.status).toBe(303);
      const luis = await signedIn(TOKENS.luis);
      await luis.get(`/approvals/approvals/${remove}`);
      const rejected = await luis.post(`/approvals/approvals/${remove}/reject`, { _csrf: luis.csrf, reason: 'keep it' });
      expect(rejected.status).toBe(303);
      const anaHistory = (await ana.get('/approvals/history')).body;
      const luisHistory = (await luis.get('/approvals/history')).body;
      expect(anaHistory).toContain(print);
      expect(anaHistory).not.toContain(remove);
      expect(anaHistory).not.toContain('keep it');
      expect(luisHistory).toContain(remove);
      expect(luisHistory).not.toContain(print);
      expect((await fixture.registry.resume(print, fixture.agent)).success).toBe(true);
    });
  });

  describe('with a host authorize', () => {
    it('receives the approver and the item, and may answer asynchronously', async () => {
      const asked: string[] = [];
      await start({
        authorize: async (approver, item) => {
          asked.push(`${approver.principal}:${item.tool}:${item.policy}`);
          return approver.principal === 'user:ana' && item.tool === 'delete_note';
        },
      });
      const remove = await holdCall(fixture, 'delete_note', { id: 'n2' });
      const ana = await signedIn(TOKENS.ana);
      expect((await ana.get(`/approvals/approvals/${remove}`)).status).toBe(200);
      expect((await (await signedIn(TOKENS.luis)).get(`/approvals/approvals/${remove}`)).status).toBe(404);
      expect(asked).toContain('user:ana:delete_note:dual');
      expect(asked).toContain('user:luis:delete_note:dual');
    });

    it('refuses (fails closed) when authorize throws, rejects or answers anything but true', async () => {
      const answers: (() => unknown)[] = [
        () => {
          throw new Error('directory down');
        },
        () => Promise.reject(new Error('directory down')),
        () => 'yes',
        () => 1,
      ];
      for (const answer of answers) {
        await start({ authorize: answer as never });
        const print = await holdCall(fixture, 'print_note', { id: 'n1', copies: 1, title: 'quarterly-report' });
        const ana = await signedIn(TOKENS.ana);
        const list = await ana.get('/approvals/');
        expect(list.status).toBe(200);
        expect(list.body).not.toContain(print);
        expect(list.body).not.toContain('directory down');
        for (const seenAnswer of await perItemAnswers(ana, print)) expect(seenAnswer.status).toBe(404);
        expect((await recordOf(print)).approvals).toHaveLength(0);
        expect((await recordOf(print)).result).toBeNull();
        await fixture.close();
      }
      fixture = await startConsoleFixture();
    });
  });
});
